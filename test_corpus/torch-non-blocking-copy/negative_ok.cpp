// torch-non-blocking-copy: negatives. non_blocking already set (or chosen at run time), copies
// to the CPU, dtype conversions, tensors that are not batches of a loader, and a CPU-only
// program (no CUDA anywhere) in cpu_only_ok.cpp.
#include <torch/torch.h>

int main(int argc, char **) {
  torch::Device device(torch::kCUDA);
  bool async = argc > 1;
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64).workers(4));
  auto weights = torch::ones({10});
  for (auto &batch : *loader) {
    auto a = batch.data.to(device, /*non_blocking=*/true);
    auto b = batch.target.to(device, torch::kLong, async);
    auto c = batch.data.to(torch::kCPU);
    auto d = batch.data.to(torch::kHalf);
    auto w = weights.to(device); // not a batch
    (void)a; (void)b; (void)c; (void)d; (void)w;
  }
  return 0;
}

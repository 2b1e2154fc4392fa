// torch-non-blocking-copy: a CPU-only program; moving to a run-time device that is never CUDA.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCPU);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64).workers(2));
  for (auto &batch : *loader) {
    auto x = batch.data.to(device);
    (void)x;
  }
  return 0;
}

// torch-non-blocking-copy, look-alikes of collate_transform.cpp: vectors filled by std::transform
// from something that is not a batch (a list of file names turned into tensors once, outside the
// step loop; the outputs of a model), or by a transform whose lambda computes a new tensor on the
// device, or also by a push_back of something else. Nothing is reported.
#include <torch/torch.h>
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

struct Images : torch::data::Dataset<Images> {
  torch::data::Example<> get(size_t i) override {
    return {torch::rand({3, 64, 64}), torch::full({1}, static_cast<int64_t>(i % 10))};
  }
  torch::optional<size_t> size() const override { return 1024; }
};

torch::Tensor load(const std::string &name);

int main() {
  torch::Device device(torch::kCUDA);
  std::vector<std::string> names{"a.pt", "b.pt"};
  std::vector<torch::Tensor> references;
  std::transform(names.begin(), names.end(), std::back_inserter(references), [](const std::string &n) { return load(n); });
  torch::Tensor ref = torch::stack(references).to(device); // once, before training
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Images(), torch::data::DataLoaderOptions().batch_size(32).workers(4));
  torch::nn::Linear net(3 * 64 * 64, 10);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      std::vector<torch::Tensor> outputs, mixed;
      std::transform(batch.begin(), batch.end(), std::back_inserter(outputs),
                     [&](auto &e) { return net->forward(e.data.to(device, /*non_blocking=*/true).flatten()); });
      torch::Tensor out = torch::stack(outputs).to(device); // already on the device
      std::transform(batch.begin(), batch.end(), std::back_inserter(mixed), [](auto &e) { return e.data; });
      mixed.push_back(ref.cpu());
      torch::Tensor m = torch::stack(mixed).to(device, /*non_blocking=*/true); // non_blocking
      auto loss = out.sum() + m.mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

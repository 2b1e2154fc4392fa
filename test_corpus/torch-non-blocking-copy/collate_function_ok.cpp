// Look-alikes of collate_function.cpp: a collate function that copies the batch's examples with
// non_blocking (from a data set whose get() pins them), and one given, at its only call, examples
// cached on the device before training (its elements are not loader batches; the copy is a
// no-op). Stacks: of examples already copied with non_blocking, of a batch pinned before its
// non_blocking copy, and of a vector that also holds a tensor made here (not the batch alone).
// No finding.
#include <torch/torch.h>
#include <vector>

struct Pinned : torch::data::Dataset<Pinned> {
  torch::data::Example<> get(size_t i) override {
    return {torch::rand({3, 32, 32}).pin_memory(), torch::full({1}, static_cast<int64_t>(i % 10)).pin_memory()};
  }
  torch::optional<size_t> size() const override { return 256; }
};

torch::Tensor collate_async(std::vector<torch::data::Example<>> &batch, torch::Device device) {
  std::vector<torch::Tensor> images;
  for (const auto &ex : batch)
    images.push_back(ex.data.to(device, /*non_blocking=*/true));
  return torch::stack(images, 0);
}

torch::Tensor collate_cached(const std::vector<torch::data::Example<>> &examples, torch::Device device) {
  std::vector<torch::Tensor> images;
  for (const auto &ex : examples)
    images.push_back(ex.data.to(device));
  return torch::stack(images, 0);
}

torch::Tensor stack_pinned(std::vector<torch::data::Example<>> &batch, torch::Device device) {
  std::vector<torch::Tensor> images;
  for (const auto &ex : batch)
    images.push_back(ex.data);
  return torch::stack(images, 0).pin_memory().to(device, /*non_blocking=*/true);
}

torch::Tensor stack_with_padding(std::vector<torch::data::Example<>> &batch, torch::Device device) {
  std::vector<torch::Tensor> images;
  for (const auto &ex : batch)
    images.push_back(ex.data);
  images.push_back(torch::zeros({3, 32, 32}, device));
  return torch::cat(images, 0).to(device);
}

int main() {
  torch::Device device(torch::kCUDA);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Pinned(), torch::data::DataLoaderOptions().batch_size(16).workers(2));
  std::vector<torch::data::Example<>> cached;
  for (int i = 0; i < 16; ++i)
    cached.push_back({torch::rand({3, 32, 32}, device), torch::zeros({1}, device)});
  torch::nn::Linear net(3 * 32 * 32, 10);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (auto &batch : *loader) {
    auto loss = net->forward(collate_async(batch, device).flatten(1)).mean() +
                net->forward(collate_cached(cached, device).flatten(1)).mean() +
                net->forward(stack_pinned(batch, device).flatten(1)).mean() +
                net->forward(stack_with_padding(batch, device).flatten(1)).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

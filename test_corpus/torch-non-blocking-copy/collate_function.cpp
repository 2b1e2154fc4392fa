// torch-non-blocking-copy: a loader without a Stack transform yields a std::vector of examples; the
// training loop hands it to the project's own collate function, which copies each example's
// target to the device with a blocking copy from pageable memory, on every step. The parameter is
// given a loader batch at every call, so its elements are batch tensors. torch::stack of the
// examples' images is the collated batch, in new pageable memory, copied the same way: reported
// too (pin it, or stack into a pinned buffer, before the non_blocking copy).
#include <torch/torch.h>
#include <tuple>
#include <vector>

struct Boxes : torch::data::Dataset<Boxes> {
  torch::data::Example<> get(size_t i) override {
    return {torch::rand({3, 32, 32}), torch::rand({static_cast<int64_t>(i % 4 + 1), 5})};
  }
  torch::optional<size_t> size() const override { return 256; }
};

std::tuple<torch::Tensor, std::vector<torch::Tensor>> collate(std::vector<torch::data::Example<>> &batch,
                                                              torch::Device device) {
  std::vector<torch::Tensor> images, targets;
  for (const auto &ex : batch) {
    images.push_back(ex.data);
    targets.push_back(ex.target.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
  }
  return {torch::stack(images, 0).to(device), targets};
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Boxes(), torch::data::DataLoaderOptions().batch_size(16).workers(2));
  torch::nn::Linear net(3 * 32 * 32, 5);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      auto [images, targets] = collate(batch, device);
      auto loss = net->forward(images.flatten(1)).mean() + targets[0].sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

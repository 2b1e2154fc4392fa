// torch-non-blocking-copy: a loader without a Stack transform yields a std::vector of examples,
// collated in the training loop the way a much-copied forum answer writes it: std::transform of
// the examples into a vector through std::back_inserter, a lambda returning each example's data (or
// target), then torch::stack(...).to(device). The stacked batch is new pageable memory, copied to
// the device with a blocking copy on every step: reported (pin it, or stack into a pinned buffer,
// before the non_blocking copy). (A vector filled from anything else: collate_transform_ok.cpp.)
#include <torch/torch.h>
#include <algorithm>
#include <iterator>
#include <vector>

struct Images : torch::data::Dataset<Images> {
  torch::data::Example<> get(size_t i) override {
    return {torch::rand({3, 64, 64}), torch::full({1}, static_cast<int64_t>(i % 10))};
  }
  torch::optional<size_t> size() const override { return 1024; }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Images(), torch::data::DataLoaderOptions().batch_size(32).workers(4));
  torch::nn::Linear net(3 * 64 * 64, 10);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      std::vector<torch::Tensor> inputs, targets;
      std::transform(batch.begin(), batch.end(), std::back_inserter(inputs), [](auto &e) { return e.data; });
      std::transform(batch.begin(), batch.end(), std::back_inserter(targets), [](auto &e) { return e.target; });
      torch::Tensor x = torch::stack(inputs).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      torch::Tensor y = torch::stack(targets).squeeze(1).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto loss = torch::cross_entropy_loss(net->forward(x.flatten(1)), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

// torch-non-blocking-copy: a local that holds the batch all along (`auto data = batch.data;`) and
// basic indexing of it (`data.index({Slice(), 0})`: slices and integers only, a view of the same
// memory) are the batch's copy too (a NeRF trainer splits its ray batch this way).
// Look-alikes (quiet): a local assigned again, an index with a tensor (a gather: new pageable
// memory that non_blocking cannot overlap), non_blocking set.
#include <torch/torch.h>

using torch::indexing::Slice;

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64));
  torch::nn::Linear model(28, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto picks = torch::arange(0, 28, 2);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data;
      auto first = data.index({Slice(), 0}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto row = data.index({Slice(), 0, 3}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto labels = batch.target;
      auto target = labels.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto gathered = data.index({Slice(), picks}).to(device); // quiet: a tensor index copies
      auto other = batch.data;
      other = other.flip(0);
      auto flipped = other.to(device);                            // quiet: assigned again
      auto pinned = data.index({Slice(), 1}).to(device, true);    // quiet: non_blocking
      auto out = model(first.squeeze(1) + row + gathered.sum() + flipped.sum() + pinned.sum());
      auto loss = torch::nn::functional::cross_entropy(out.view({-1, 10}), target);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

// torch-non-blocking-copy: a view of a batch (view, reshape, flatten...) is the batch's own host
// memory, so copying it to the device is the batch's copy (prabhuomkar/pytorch-cpp's MNIST
// tutorials: `batch.data.view({batch_size, -1}).to(device)`; found by `torchlint trace`,
// docs/accuracy-runtime.md). Negatives: non_blocking set, a view of a tensor that is no batch.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(100));
  torch::nn::Linear model(784, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto weights = torch::ones({10});
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data.view({100, -1}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto rows = batch.data.reshape({-1, 28, 28}).contiguous().to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:65: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto target = batch.target.flatten().to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto pinned = batch.data.view({100, -1}).to(device, /*non_blocking=*/true);  // quiet: non_blocking
      auto w = weights.view({-1, 1}).to(device);                                 // quiet: no batch
      auto loss = torch::cross_entropy_loss(model(data + pinned + rows.view({100, -1})), target) + w.sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

// torch-non-blocking-copy: batches of a data loader copied to the GPU without non_blocking.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64).workers(4));
  torch::nn::Linear model(784, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto target = batch.target.to(device, torch::kLong);
      // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto loss = torch::nll_loss(torch::log_softmax(model(data.view({-1, 784})), 1), target);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

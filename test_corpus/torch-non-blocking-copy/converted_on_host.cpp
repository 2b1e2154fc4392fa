// torch-non-blocking-copy: a trainer template converts the batch's dtype on the host
// (`data = data.to(torch::kF32)`: the batch itself when it is float already, else new pageable
// memory made from it), then copies it to the device with a blocking copy on every step. The
// conversion has no device: what reaches the copy is still the batch in pageable host memory.
// Look-alikes: a converted batch pinned before its non_blocking copy, and a conversion that is
// itself the copy (`.to(device, kF32)` with non_blocking).
#include <torch/torch.h>

template <typename Net, typename Loader>
void train_one_epoch(Net model, torch::Device device, Loader &loader, torch::optim::Optimizer &opt) {
  model->train();
  for (const auto &batch : *loader) {
    auto data = batch.data;
    auto targets = batch.target;
    data = data.to(torch::kF32);
    targets = targets.toType(torch::kLong);
    data = data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
    targets = targets.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
    opt.zero_grad();
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(data.flatten(1)), 1), targets);
    loss.backward();
    opt.step();
  }
}

template <typename Net, typename Loader>
void train_one_epoch_pinned(Net model, torch::Device device, Loader &loader, torch::optim::Optimizer &opt) {
  for (const auto &batch : *loader) {
    auto data = batch.data.to(torch::kF32).pin_memory().to(device, /*non_blocking=*/true);
    auto targets = batch.target.to(device, torch::kLong, /*non_blocking=*/true);
    opt.zero_grad();
    auto loss = torch::nll_loss(torch::log_softmax(model->forward(data.flatten(1)), 1), targets);
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(784, 10);
  net->to(device);
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(64).workers(2));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 3; ++epoch) {
    train_one_epoch(net, device, loader, opt);
    train_one_epoch_pinned(net, device, loader, opt);
  }
}

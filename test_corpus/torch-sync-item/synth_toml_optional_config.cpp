// torch-sync-item in a detector's training loop whose configuration library is not installed and
// has no stand-in (issue 24): toml++. Its idiom reads a setting as an optional,
// `cfg["batch_size"].value<uint64_t>().value()`: a synthesised member template that gave the number
// itself made the second `.value()` a compiler error, the batch size invalid, the data loader
// built from it invalid, and the range-for over the loader (the whole step) dropped
// (core/Synthesis.h: a member template whose result is used as an object gives __typed<T>). The
// loss read with item() on every step is found; the read after training is not.
// TORCHLINT-CHECKS: -*,torch-sync-item
// TORCHLINT-MISSING-HEADERS: toml++/toml.hpp
#include <torch/torch.h>
#include <toml++/toml.hpp>
#include <cstdint>

int main() {
  auto cfg = toml::parse_file("config.toml");
  auto batch_size = cfg["train"]["batch_size"].value<uint64_t>().value();
  auto epochs = cfg["train"]["epochs"].value<int64_t>().value_or(10);
  double lr = cfg["train"]["lr"].value<double>().value();
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(784, 10);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), lr);
  auto data = torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(data), torch::data::DataLoaderOptions().batch_size(batch_size).workers(4));
  float last = 0;
  for (int64_t epoch = 0; epoch < epochs; ++epoch) {
    for (auto &batch : *loader) {
      opt.zero_grad();
      auto loss = torch::nll_loss(torch::log_softmax(net->forward(batch.data.to(device).view({-1, 784})), 1),
                                  batch.target.to(device));
      loss.backward();
      opt.step();
      last += loss.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: Tensor::item() copies the value to the host [torch-sync-item]
    }
  }
  torch::Tensor w = net->weight.sum();
  return static_cast<int>(last + w.item<float>()); // quiet: once, after training
}

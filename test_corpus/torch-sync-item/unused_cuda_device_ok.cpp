// torch-sync-item: a program that builds a CUDA device and never uses it (no tensor, module or
// option is given it): every tensor lives on the host, so reading the loss each step syncs
// nothing. The look-alike, a device that is only printed, is in unused_cuda_device.cpp (named
// once, it may reach the code: reported).
#include <torch/torch.h>
#include <iostream>

// The data set's loader, in another file: where its tensors live is not known here.
std::pair<torch::Tensor, torch::Tensor> load_airfoil();

torch::Tensor model(const torch::Tensor &x, const torch::Tensor &w, const torch::Tensor &b) {
  return torch::mm(x, w) + b;
}

int main() {
  bool cuda = torch::cuda::is_available();
  torch::Device device(cuda ? torch::kCUDA : torch::kCPU);
  std::cout << (cuda ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';
  auto [data, label] = load_airfoil();
  auto w = torch::normal(0.0, 0.01, {5, 1}).requires_grad_(true);
  auto b = torch::zeros({1}, torch::requires_grad(true));
  float total = 0;
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int64_t i = 0; i + 10 <= data.size(0); i += 10) {
      auto x = data.narrow(0, i, 10);
      auto y = label.narrow(0, i, 10);
      auto loss = (model(x, w, b) - y).pow(2).mean();
      loss.backward();
      {
        torch::NoGradGuard no_grad;
        w -= 0.03 * w.grad();
        b -= 0.03 * b.grad();
        w.grad().zero_();
        b.grad().zero_();
      }
      total += loss.item<float>();
    }
  }
  std::cout << total << '\n';
}

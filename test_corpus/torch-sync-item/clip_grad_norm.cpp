// torch-sync-item: torch::nn::utils::clip_grad_norm_() returns the total norm as a double, read
// with item() inside the libtorch header (1.13 and 2.x): a sync on every step it runs in
// (prabhuomkar/pytorch-cpp's language model; found by `torchlint trace`, docs/accuracy-runtime.md).
// Negatives: once after training, clip_grad_value_ (no norm is read).
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(16, 1);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto x = torch::randn({64, 16}, device), y = torch::randn({64, 1}, device);
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    torch::mse_loss(model(x), y).backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: clip_grad_norm_() returns the total norm as a double [torch-sync-item]
    torch::nn::utils::clip_grad_value_(model->parameters(), 1.0);  // quiet: reads nothing
    opt.step();
  }
  double norm = torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);  // quiet: once
  return norm > 0 ? 0 : 1;
}

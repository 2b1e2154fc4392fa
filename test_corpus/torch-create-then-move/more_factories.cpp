// torch-create-then-move: every factory that takes TensorOptions, not only the common ones.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::hann_window(64).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: torch::hann_window(...).to(...) creates the tensor on the CPU [torch-create-then-move]
  // CHECK-FIXES: auto w = torch::hann_window(64, torch::TensorOptions().device(device));
  auto k = torch::kaiser_window(32, torch::TensorOptions().dtype(torch::kDouble)).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: torch::kaiser_window(...).cuda() creates the tensor on the CPU [torch-create-then-move]
  // CHECK-FIXES: auto k = torch::kaiser_window(32, torch::TensorOptions().dtype(torch::kDouble).device(torch::kCUDA));
  auto f = torch::fft::fftfreq(16).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: torch::fftfreq(...).to(...) creates the tensor on the CPU [torch-create-then-move]
  // CHECK-FIXES: auto f = torch::fft::fftfreq(16, torch::TensorOptions().device(device));
  auto t = torch::tril_indices(4, 4).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: torch::tril_indices(...).to(...) creates the tensor on the CPU [torch-create-then-move]
  auto r = at::randperm(10, torch::kLong).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: at::randperm(...).to(...) creates the tensor on the CPU, drawing its numbers from the CPU generator [torch-create-then-move]
  (void)w; (void)k; (void)f; (void)t; (void)r;
  return 0;
}

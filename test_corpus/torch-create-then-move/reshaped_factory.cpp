// torch-create-then-move through reshaping methods: the factory's tensor is still filled on the CPU
// and copied; the fix moves the device into the factory's options and keeps the reshape.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  const int64_t n = 32;
  auto row = torch::zeros({1, n}).squeeze(0).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: torch::zeros(...).to(...) creates the tensor on the CPU, then allocates it again on the device and copies it [torch-create-then-move]
  // CHECK-FIXES: auto row = torch::zeros({1, n}, torch::TensorOptions().device(device)).squeeze(0);
  auto grid = torch::ones({n * n}).view({n, n}).t().cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: torch::ones(...).cuda() creates the tensor on the CPU [torch-create-then-move]
  // CHECK-FIXES: auto grid = torch::ones({n * n}, torch::TensorOptions().device(torch::kCUDA)).view({n, n}).t();
  return static_cast<int>((row.sum() + grid.sum()).item<float>());
}

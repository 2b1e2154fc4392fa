// torch-float64-on-device: double tensors made on the device, and double host data copied to the
// device on every step.
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto w = torch::randn({512, 512}, torch::TensorOptions().dtype(torch::kDouble).device(device).requires_grad(true));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: float64 tensor created on the device in a program that runs on CUDA [torch-float64-on-device]
  torch::optim::SGD opt({w}, 0.01);
  std::vector<double> rows(64 * 512, 0.5);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::from_blob(rows.data(), {64, 512}, torch::kDouble).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: a float64 tensor is copied to the device in a program that runs on CUDA [torch-float64-on-device]
    auto noise = torch::randn({64, 512}, torch::dtype(torch::kFloat64).device(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: float64 tensor created on the device [torch-float64-on-device]
    auto loss = torch::matmul(x + noise, w).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

// torch-create-then-move: a factory immediately moved to the device.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA, 0);
  // Random factories: reported without a fix (on the device, another generator draws the numbers).
  auto w = torch::randn({4, 4}).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: torch::randn(...).cuda() creates the tensor on the CPU, drawing its numbers from the CPU generator [torch-create-then-move]
  auto b = torch::zeros({4}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: torch::zeros(...).to(...) creates the tensor on the CPU [torch-create-then-move]
  // CHECK-FIXES: auto b = torch::zeros({4}, torch::TensorOptions().device(device));
  auto c = torch::ones({2, 2}, torch::kFloat).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: torch::ones(...).to(...) creates [torch-create-then-move]
  // CHECK-FIXES: auto c = torch::ones({2, 2}, torch::TensorOptions(torch::kFloat).device(device));
  auto opts = torch::TensorOptions().dtype(torch::kHalf);
  auto d = torch::empty({8}, opts).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: torch::empty(...).to(...) creates [torch-create-then-move]
  // CHECK-FIXES: auto d = torch::empty({8}, opts.device(torch::kCUDA));
  auto e = torch::arange(0, 10).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: torch::arange(...).to(...) creates [torch-create-then-move]
  // CHECK-FIXES: auto e = torch::arange(0, 10, torch::TensorOptions().device(device));
  auto f = torch::full({3}, 1.5).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: torch::full(...).cuda() creates [torch-create-then-move]
  // CHECK-FIXES: auto f = torch::full({3}, 1.5, torch::TensorOptions().device(torch::kCUDA));
  // Not reported: torch::tensor({...}) fills a CPU tensor and copies it to the device even with
  // the device in its options.
  auto g = torch::tensor({1.0, 2.0, 3.0}).to(device);
  auto h = torch::eye(3).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: torch::eye(...).cuda() creates [torch-create-then-move]
  // CHECK-FIXES: auto h = torch::eye(3, torch::TensorOptions().device(torch::kCUDA));
  auto i = at::randint(0, 10, {5}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: at::randint(...).to(...) creates the tensor on the CPU, drawing its numbers from the CPU generator, then allocates it again on the device and copies it; with the device in the factory's TensorOptions the numbers are drawn on the device in one step, but from the device's generator, so a seeded run gets other numbers (advice, no fix-it [torch-create-then-move]
  // Reported, but no fix: a leaf that requires grad would become a different tensor.
  auto j = torch::zeros({2}, torch::requires_grad()).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: torch::zeros(...).to(...) creates [torch-create-then-move]
  // Reported, but no fix: .to(device, non_blocking).
  auto k = torch::rand({2}).to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: torch::rand(...).to(...) creates [torch-create-then-move]
  (void)w; (void)b; (void)c; (void)d; (void)e; (void)f; (void)g; (void)h; (void)i; (void)j; (void)k;
  return 0;
}

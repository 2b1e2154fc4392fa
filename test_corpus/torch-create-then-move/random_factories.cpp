// torch-create-then-move: random factories moved to the device are reported as advice, without a
// fix-it: drawn on the device they would come from the device's generator, so a program seeded
// with torch::manual_seed gets other numbers (factories.fixed.cpp shows --fix leaves them alone).
#include <torch/torch.h>

int main() {
  torch::manual_seed(42);
  torch::Device device(torch::kCUDA);
  auto noise = torch::normal(0.0, 1.0, {16}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: torch::normal(...).to(...) creates the tensor on the CPU, drawing its numbers from the CPU generator [torch-create-then-move]
  auto perm = torch::randperm(16).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: torch::randperm(...).cuda() creates the tensor on the CPU, drawing its numbers [torch-create-then-move]
  auto u = torch::rand({4, 4}, torch::kDouble).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: torch::rand(...).to(...) creates the tensor on the CPU, drawing its numbers [torch-create-then-move]
  auto labels = torch::randint(10, {8}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: torch::randint(...).to(...) creates the tensor on the CPU, drawing its numbers [torch-create-then-move]
  // Not reported: torch::tensor builds on the CPU and copies either way (a list, a vector).
  auto table = torch::tensor({0.1, 0.2, 0.7}).to(device);
  auto from_vector = torch::tensor(std::vector<float>{1.f, 2.f}).cuda();
  (void)noise; (void)perm; (void)u; (void)labels; (void)table; (void)from_vector;
  return 0;
}

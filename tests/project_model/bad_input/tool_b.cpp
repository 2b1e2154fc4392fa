#include "torch_mini.h"

int main() {
  at::Tensor t = torch::ones({4}, at::TensorOptions(at::kCUDA));
  std::cout << t.sum().item<float>();
}

#include "torch_mini.h"

// One of two programs in the same compile database: each defines main().
int main() {
  at::Tensor t = torch::ones({4}, at::TensorOptions(at::kCUDA));
  float s = 0;
  for (int i = 0; i < 10; ++i)
    s += t.sum().item<float>();
  std::cout << s;
}

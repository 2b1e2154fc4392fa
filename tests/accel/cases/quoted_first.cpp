// The first include is a project header (which includes torch.h first): the PCH of its block.
#include "helpers.h"
#include <torch/torch.h>

int main() {
  std::vector<torch::Tensor> v{torch::ones({1}, torch::kCUDA)};
  float s = 0;
  for (int i = 0; i < 3; ++i)
    s += v[0].item<float>();
  return s + sumLosses(v) > 0;
}

// libtorch included with quotes (found in a search folder, not beside this file): the same block
// as #include <torch/torch.h>.
#include "torch/torch.h"

int main() {
  auto t = torch::zeros({2}, torch::kCUDA);
  double acc = 0;
  for (int i = 0; i < 3; ++i)
    acc += t.sum().item<double>();
  return acc > 0;
}

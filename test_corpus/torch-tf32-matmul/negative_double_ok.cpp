// Clean: a CUDA program that computes in double: cuBLAS's fp64 GEMMs have no TF32 mode, and a
// file that names kDouble cares about precision.
#include <torch/torch.h>

int main() {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kDouble);
  auto a = torch::randn({256, 256}, opts);
  for (int i = 0; i < 100; ++i)
    a = torch::mm(a, a).tanh();
}

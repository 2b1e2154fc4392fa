// TORCHLINT-CHECKS: -*,torch-pointwise-fusion
// Clean: the gelu chain in a CPU-only program (no kernel launches to save).
#include <torch/torch.h>

torch::Tensor my_gelu(const torch::Tensor &x) { return x * 0.5 * (1.0 + torch::erf(x / 1.41421)); }

int main() {
  auto x = torch::randn({128});
  for (int i = 0; i < 10; ++i)
    x = my_gelu(x);
}

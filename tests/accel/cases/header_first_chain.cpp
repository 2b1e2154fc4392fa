// Two project headers deep before libtorch: chain_outer.h -> chain_inner.h -> <torch/torch.h>.
#include "chain_outer.h"

int main() {
  std::vector<torch::Tensor> xs{torch::ones({2}, torch::kCUDA)};
  float m = 0;
  for (int i = 0; i < 4; ++i)
    m += meanSync(xs) + xs[0].sum().item<float>();
  return m > 0;
}

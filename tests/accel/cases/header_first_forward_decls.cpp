// The project's header comes first and forward-declares classes before it includes libtorch:
// served by the torch.h PCH, with the same findings as without it.
#include "forward_decls.h"

int main() {
  RunSettings s;
  auto w = torch::randn({4}, torch::kCUDA).requires_grad_();
  torch::optim::SGD opt({w}, 0.1);
  float total = 0;
  for (int step = 0; step < s.steps; ++step) {
    auto loss = (w * w).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += drain(loss);
  }
  return total > 0;
}

// torch-zero-grad-set-to-none on libtorch 2.x: zero_grad() already resets gradients; only an
// explicit zero_grad(false) zeroes them.
// TORCHLINT-VERSIONS: 2
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(8, 1);
  torch::optim::Adam opt(model->parameters());
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad(); // quiet: set_to_none defaults to true
    model->zero_grad(); // quiet
    auto loss = model(torch::randn({4, 8})).sum();
    loss.backward();
    opt.step();
    opt.zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: Optimizer::zero_grad(false) writes zeros into every gradient [torch-zero-grad-set-to-none]
    // CHECK-FIXES: opt.zero_grad(true);
    model->zero_grad(/*set_to_none=*/false);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: Module::zero_grad(false) writes zeros into every gradient [torch-zero-grad-set-to-none]
    // CHECK-FIXES: model->zero_grad(/*set_to_none=*/true);
  }
  return 0;
}

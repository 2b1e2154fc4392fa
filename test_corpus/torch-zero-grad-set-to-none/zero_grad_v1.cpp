// torch-zero-grad-set-to-none on libtorch 1.13: Optimizer::zero_grad() always zeroes, and
// Module::zero_grad() defaults to set_to_none = false.
// TORCHLINT-VERSIONS: 1
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// A helper called from the training loop: hot.
void reset(torch::optim::Optimizer &opt) {
  opt.zero_grad();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: Optimizer::zero_grad() in libtorch < 2.0 writes zeros into every gradi [torch-zero-grad-set-to-none]
  // CHECK-FIXES: for (auto &group : opt.param_groups()) for (auto &param : group.params()) param.mutable_grad().reset();
}

int main() {
  auto model = std::make_shared<Net>();
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: Optimizer::zero_grad() in libtorch < 2.0 writes zeros into every gradi [torch-zero-grad-set-to-none]
    // CHECK-FIXES: for (auto &group : opt.param_groups()) for (auto &param : group.params()) param.mutable_grad().reset();
    auto loss = model->forward(torch::randn({4, 8})).sum();
    loss.backward();
    opt.step();
    model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: Module::zero_grad() in libtorch < 2.0 defaults to set_to_none = false [torch-zero-grad-set-to-none]
    // CHECK-FIXES: model->zero_grad(true);
    model->zero_grad(false);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: Module::zero_grad(false) writes zeros into every gradient [torch-zero-grad-set-to-none]
    // CHECK-FIXES: model->zero_grad(true);
    reset(opt);
  }
  // Through a pointer, and as the body of an if: the fix-it rewrites the statement.
  auto adam = std::make_unique<torch::optim::Adam>(model->parameters());
  for (int step = 0; step < 100; ++step) {
    if (step % 4 == 0)
      adam->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: Optimizer::zero_grad() in libtorch < 2.0 writes zeros into every gradi [torch-zero-grad-set-to-none]
      // CHECK-FIXES: for (auto &group : adam->param_groups()) for (auto &param : group.params()) param.mutable_grad().reset();
    model->forward(torch::randn({4, 8})).sum().backward();
    adam->step();
  }
  // Not a statement of its own: reported without a fix.
  for (int step = 0; step < 100; ++step) {
    auto loss = (opt.zero_grad(), model->forward(torch::randn({4, 8})).sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Optimizer::zero_grad() in libtorch < 2.0 writes zeros into every gradi [torch-zero-grad-set-to-none]
    loss.backward();
    opt.step();
  }
  return 0;
}

// torch-sync-item in a custom autograd function: SphereHarmonics::apply(...) in the training step
// runs SphereHarmonics::forward() there (libtorch's apply() calls it; no code names it), so the
// host read of the degree tensor in forward() happens on every step. The same function applied
// once before training is in custom_autograd_function_ok.cpp.
#include <torch/torch.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct SphereHarmonics : torch::autograd::Function<SphereHarmonics> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &dirs, const torch::Tensor &degree) {
    int d = degree.item<int>();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: Tensor::item() copies the value to the host [torch-sync-item]
    ctx->save_for_backward({dirs});
    return dirs.pow(d);
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    return {grads[0] * 2, torch::Tensor()};
  }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(3, 3);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) {
    auto dirs = net->forward(torch::randn({64, 3}, device));
    auto degree = torch::tensor({3}, torch::TensorOptions().dtype(torch::kInt).device(device));
    auto loss = SphereHarmonics::apply(dirs, degree).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

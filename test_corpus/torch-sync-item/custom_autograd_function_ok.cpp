// torch-sync-item: the look-alike of custom_autograd_function.cpp: the custom autograd function
// is applied once, before training (a warm-up check of its output), never in the step, so the
// read in its forward() runs once. No finding.
#include <torch/torch.h>
#include <iostream>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct SphereHarmonics : torch::autograd::Function<SphereHarmonics> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &dirs, const torch::Tensor &degree) {
    int d = degree.item<int>();
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
  auto probe = torch::randn({4, 3}, device);
  std::cout << SphereHarmonics::apply(probe, torch::tensor({2}, torch::TensorOptions().dtype(torch::kInt).device(device))).sizes() << "\n";
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) {
    auto loss = net->forward(torch::randn({64, 3}, device)).pow(2).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

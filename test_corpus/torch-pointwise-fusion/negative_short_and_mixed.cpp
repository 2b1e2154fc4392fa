// TORCHLINT-CHECKS: -*,torch-pointwise-fusion
// Clean: chains of three ops, expressions over several different tensors (not one tensor's
// chain), a chain in setup code, and a built-in fused op.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(64, 64)); }
  torch::Tensor forward(torch::Tensor x, torch::Tensor skip, torch::Tensor scale) {
    auto a = torch::tanh(x) * 2.0 + 1.0;
    auto b = x * scale + skip * (1.0 - scale) + x / 2;
    auto c = torch::gelu(fc->forward(a + b));
    return c;
  }
  torch::nn::Linear fc{nullptr};
};

int main() {
  Net net;
  net.to(torch::kCUDA);
  auto t = torch::randn({64}, torch::kCUDA);
  auto init = t * 0.5 * (1.0 + torch::erf(t / 1.41421)); // once, in setup
  for (int i = 0; i < 10; ++i) {
    auto x = torch::randn({8, 64}, torch::kCUDA);
    net.forward(x, x, x).sum().backward();
  }
  (void)init;
}

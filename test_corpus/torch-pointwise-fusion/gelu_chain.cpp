// TORCHLINT-CHECKS: -*,torch-pointwise-fusion
// Elementwise chains on one tensor in forward() of a CUDA model.
#include <torch/torch.h>

struct Mlp : torch::nn::Module {
  Mlp() {
    fc1 = register_module("fc1", torch::nn::Linear(64, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 64));
  }
  static torch::Tensor gelu(const torch::Tensor &x) {
    return x * 0.5 * (1.0 + torch::erf(x / 1.41421));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 5 elementwise operations on `x` in one expression launch 5 kernels [torch-pointwise-fusion]
  }
  torch::Tensor forward(torch::Tensor x) {
    auto h = gelu(fc1->forward(x));
    auto y = fc2->forward(h);
    return y.sigmoid().mul(2.0).sub(1.0).clamp(-0.99, 0.99);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 4 elementwise operations on `y` [torch-pointwise-fusion]
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  Mlp net;
  net.to(torch::kCUDA);
  torch::optim::Adam opt(net.parameters());
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net.forward(torch::randn({32, 64}, torch::kCUDA)).sum().backward();
    opt.step();
  }
}

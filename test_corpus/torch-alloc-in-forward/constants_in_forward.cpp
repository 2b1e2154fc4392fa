// Tensors built from constants on every forward() call of a CUDA model and its loss.
#include <torch/torch.h>

struct MaskedLoss : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &pred, torch::Tensor target) {
    target = torch::where(target == 9, -1 * torch::ones_like(target), target);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: `-1 * torch::ones_like(target)` allocates and fills a tensor on every call only to carry a constant [torch-alloc-in-forward]
    auto weights = torch::tensor({1.0, 2.0, 0.5}).to(pred.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: torch::tensor(...) builds a tensor from literals on every call [torch-alloc-in-forward]
    return torch::nn::functional::cross_entropy(
        pred, target, torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-1).weight(weights));
  }
};

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(16, 3)); }
  torch::Tensor forward(torch::Tensor x) {
    auto pos = torch::arange(16, torch::TensorOptions().device(x.device()));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: torch::arange(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
    auto bias = torch::zeros_like(x);
    x = torch::where(x > 0, x, torch::zeros_like(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: use the scalar overload torch::where(cond, 0, other) [torch-alloc-in-forward]
    return fc->forward(x + pos + bias);
  }
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto net = std::make_shared<Net>();
  net->to(torch::kCUDA);
  MaskedLoss loss_fn;
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int i = 0; i < 100; ++i) {
    auto x = torch::randn({8, 16}, torch::kCUDA);
    auto y = torch::randint(0, 3, {8}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kLong));
    opt.zero_grad();
    loss_fn.forward(net->forward(x), y).backward();
    opt.step();
  }
}

// torch-alloc-in-forward through parameters: forward() builds an output object (and calls a
// helper) with literal bounds and sizes, and the constructor or helper runs a factory on them:
// every call of them in the file passes constants (or leaves a parameter to a constant default:
// a smoothing window sized 11 unless told otherwise), so the factory rebuilds the same tensor on
// every step. (A value read from the input or from the module, a default read at run time, and
// a default that another call overrides with a run-time value: constant_through_parameters_ok.cpp.)
#include <torch/torch.h>

struct SupportOutput {
  SupportOutput(const torch::Tensor &logits, float lo, float hi, int64_t atoms) : logits(logits) {
    support = torch::linspace(lo, hi, atoms, logits.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: torch::linspace(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
  }
  torch::Tensor expected() const { return (support * torch::softmax(logits, -1)).sum(-1); }
  torch::Tensor logits, support;
};

torch::Tensor grid(int64_t n, const torch::Tensor &like) {
  return torch::arange(n, like.options());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: torch::arange(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
}

torch::Tensor window(const torch::Tensor &like, int64_t n = 11) {
  return torch::arange(n, like.options());
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: torch::arange(...) builds a tensor from constant arguments on every call [torch-alloc-in-forward]
}

struct ValueHead : torch::nn::Module {
  ValueHead() { fc = register_module("fc", torch::nn::Linear(32, 51)); }
  torch::Tensor forward(const torch::Tensor &x) {
    SupportOutput out(fc->forward(x), -10.0f, 10.0f, 51);
    return out.expected() + grid(51, x).mean() + window(x).mean();
  }
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto head = std::make_shared<ValueHead>();
  head->to(torch::kCUDA);
  torch::optim::Adam opt(head->parameters());
  for (int step = 0; step < 1000; ++step) {
    auto loss = head->forward(torch::randn({64, 32}, torch::kCUDA)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// torch-eval-no-grad: negatives. A guard in scope (NoGradGuard, InferenceMode,
// AutoGradMode(false)), a caller that holds the guard, gradients needed (backward, inputs that
// require grad, a helper that trains), eval() without a forward, a user class that looks alike.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

struct Report {
  void eval() {}
  int forward(int x) { return x; }
};

void guarded(std::shared_ptr<Net> m, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  m->eval();
  auto out = m->forward(x);
  (void)out;
}

void inference_mode(std::shared_ptr<Net> m, const torch::Tensor &x) {
  c10::InferenceMode guard;
  m->eval();
  (void)m->forward(x);
}

void autograd_off(std::shared_ptr<Net> m, const torch::Tensor &x) {
  m->eval();
  {
    torch::AutoGradMode enable(false);
    (void)m->forward(x);
  }
}

// Called only from a scope that holds a guard.
void helper(std::shared_ptr<Net> m, const torch::Tensor &x) {
  m->eval();
  (void)m->forward(x);
}

void caller(std::shared_ptr<Net> m, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  helper(m, x);
}

// Input gradients for a saliency map: gradients are needed.
torch::Tensor saliency(std::shared_ptr<Net> m, torch::Tensor x) {
  m->eval();
  x.requires_grad_();
  m->forward(x).sum().backward();
  return x.grad();
}

void train_step(std::shared_ptr<Net> m, const torch::Tensor &x) {
  m->forward(x).sum().backward();
}

// Trains through a helper after evaluating (eval() keeps dropout off, gradients on).
void finetune_frozen_bn(std::shared_ptr<Net> m, const torch::Tensor &x) {
  m->eval();
  (void)m->forward(x);
  train_step(m, x);
}

void only_mode(std::shared_ptr<Net> m) { m->eval(); }

int main() {
  auto m = std::make_shared<Net>();
  auto x = torch::randn({4, 8});
  guarded(m, x);
  inference_mode(m, x);
  autograd_off(m, x);
  caller(m, x);
  auto s = saliency(m, x);
  finetune_frozen_bn(m, x);
  only_mode(m);
  Report r;
  r.eval();
  (void)r.forward(1);
  (void)s;
  return 0;
}

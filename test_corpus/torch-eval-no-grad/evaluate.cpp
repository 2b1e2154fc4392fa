// torch-eval-no-grad: evaluation after eval() with gradient recording on.
// Fixes: the whole <case>.fixed.cpp, not inline CHECK-FIXES: the fix inserts a statement before
// the body's first statement, so a CHECK-FIXES comment at the top of the body would itself be the
// line the insertion follows; the whole file shows where the statement lands.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

double evaluate(std::shared_ptr<Net> model, const torch::Tensor &x, const torch::Tensor &y) {
  model->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: module evaluated after eval() with gradient recording on [torch-eval-no-grad]
  auto out = model->forward(x);
  return out.argmax(1).eq(y).sum().item<double>() / x.size(0);
}

void validate(torch::nn::Sequential &seq, const torch::Tensor &x) {
  seq->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: module evaluated after eval() with gradient recording on [torch-eval-no-grad]
  for (int i = 0; i < 10; ++i) {
    auto out = seq->forward(x);
    (void)out;
  }
}

// Returns the outputs: reported without a fix (the guard would also stop their gradients).
torch::Tensor infer(torch::nn::Linear &lin, const torch::Tensor &x) {
  lin->eval();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: module evaluated after eval() with gradient recording on [torch-eval-no-grad]
  return lin(x);
}

int main() {
  auto model = std::make_shared<Net>();
  torch::nn::Sequential seq(torch::nn::Linear(8, 8), torch::nn::ReLU());
  torch::nn::Linear lin(8, 2);
  auto x = torch::randn({4, 8});
  auto y = torch::zeros({4}, torch::kLong);
  double acc = evaluate(model, x, y);
  validate(seq, x);
  auto out = infer(lin, x);
  (void)acc;
  (void)out;
  return 0;
}

// torch-eval-no-grad: evaluation and inference routines (named so) that run forward() without
// eval() and without a guard. A model with neither dropout nor batch norm needs no eval(), but the
// graph is still recorded. They train nothing and give back no tensor.
// Fixes: the whole <case>.fixed.cpp, not inline CHECK-FIXES: the fix inserts a statement before
// the body's first statement, so a CHECK-FIXES comment at the top of the body would itself be the
// line the insertion follows; the whole file shows where the statement lands.
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

double validate(std::shared_ptr<Net> model, const torch::Tensor &x, const torch::Tensor &y) {
  torch::NoGradGuard no_grad;
  auto out = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: evaluation routine validate() runs forward() with gradient recording on [torch-eval-no-grad]
  return torch::nn::functional::cross_entropy(out, y).item<double>();
}

// camelCase, a Sequential called through operator().
float runInference(torch::nn::Sequential &seq, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += seq->forward(x).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: evaluation routine runInference() runs forward() with gradient recording on [torch-eval-no-grad]
  return total;
}

// A template: reported once, fixed once.
template <class Model> void test_epoch(Model &model, const std::vector<torch::Tensor> &batches) {
  torch::NoGradGuard no_grad;
  int64_t correct = 0;
  for (const auto &b : batches)
    correct += model->forward(b).argmax(1).eq(0).sum().template item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: evaluation routine test_epoch() runs forward() with gradient recording on [torch-eval-no-grad]
  std::cout << "correct: " << correct << "\n";
}

int main() {
  auto model = std::make_shared<Net>();
  torch::nn::Sequential seq(torch::nn::Linear(8, 8), torch::nn::ReLU());
  auto x = torch::randn({4, 8});
  auto y = torch::zeros({4}, torch::kLong);
  double loss = validate(model, x, y);
  float s = runInference(seq, x);
  std::vector<torch::Tensor> batches{x, x};
  test_epoch(model, batches);
  (void)loss;
  (void)s;
  return 0;
}

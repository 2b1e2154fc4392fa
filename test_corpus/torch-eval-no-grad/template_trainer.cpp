// eval() on a model whose type is the template parameter, in a class template this TU never
// instantiates: `model_->eval()` then `model_->forward(x)` with no guard.
#include <torch/torch.h>

template <class Model> class Validator {
public:
  explicit Validator(Model model) : model_(model) {}
  int64_t validate(const std::vector<torch::Tensor> &images) {
    model_->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: module evaluated after eval() with gradient recording on: forward() at line 13 [torch-eval-no-grad]
    int64_t n = 0;
    for (const auto &x : images) {
      auto out = model_->forward(x);
      n += out.size(0);
    }
    return n;
  }

private:
  Model model_;
};

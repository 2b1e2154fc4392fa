// Dependent look-alikes: a guard in the template, eval() on one object and forward() on another,
// and an eval() of a parameter type that never runs forward().
#include <torch/torch.h>

template <class Model> struct Guarded {
  Model model;
  int64_t run(const torch::Tensor &x) {
    torch::NoGradGuard no_grad;
    model->eval();
    return model->forward(x).size(0);
  }
};

template <class Model, class Other> struct TwoObjects {
  Model model;
  Other other;
  int64_t run(const torch::Tensor &x) {
    model->eval();
    return other->forward(x).size(0); // trains or not: other is not the evaluated model
  }
};

template <class Config> struct Settings {
  Config config;
  void finish() { config->eval(); } // nothing runs forward()
};

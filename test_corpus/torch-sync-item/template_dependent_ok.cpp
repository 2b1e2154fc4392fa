// Dependent code that cannot be judged in a template never instantiated: the value's type is the
// template parameter's (or a member of it), so `item()` may be anything's. And a template that is
// instantiated is judged in its instantiation only: here on the CPU, so quiet.
#include <torch/torch.h>

template <class Metric> double average(const std::vector<Metric> &ms) {
  double s = 0;
  for (const auto &m : ms)
    s += m.template item<double>(); // Metric is not known to be a tensor
  return s;
}

template <class Model> struct Evaluator {
  Model model;
  double run(const torch::Tensor &x) {
    double s = 0;
    for (int i = 0; i < 10; ++i) {
      auto score = model->score(x); // a member of the parameter: its type is unknown
      s += score.template item<double>();
      auto same = model->forward(x).sum(); // forward() of an unknown type: not known to be a tensor
      s += same.template item<double>();
    }
    return s;
  }
};

template <class T> double cpu_sum(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += torch::ones({2}, torch::dtype<T>()).sum().template item<double>();
  return s;
}
double instantiated = cpu_sum<float>(3);

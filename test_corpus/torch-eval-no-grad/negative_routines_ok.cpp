// torch-eval-no-grad: routines named like evaluation that must stay quiet. Each gives a tensor
// back (returned, through an out-parameter, into a member or a caller's container), trains, holds
// a guard, is only called under a guard, or is not an evaluation routine at all.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

// Returns the outputs: the caller may train on them.
torch::Tensor predict(std::shared_ptr<Net> m, const torch::Tensor &x) { return m->forward(x); }

// Out-parameters.
void evaluate_into(std::shared_ptr<Net> m, const torch::Tensor &x, torch::Tensor &out) { out = m->forward(x); }
void infer_all(std::shared_ptr<Net> m, const torch::Tensor &x, std::vector<torch::Tensor> &outs) {
  outs.push_back(m->forward(x));
}

// Keeps the output in a member.
struct Runner {
  std::shared_ptr<Net> m = std::make_shared<Net>();
  torch::Tensor last;
  void infer(const torch::Tensor &x) { last = m->forward(x); }
};

// Trains.
double validate_and_step(std::shared_ptr<Net> m, torch::optim::SGD &opt, const torch::Tensor &x) {
  auto loss = m->forward(x).sum();
  loss.backward();
  opt.step();
  return loss.item<double>();
}

// Guarded, or only called under a guard.
double evaluateLoss(std::shared_ptr<Net> m, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return m->forward(x).sum().item<double>();
}
double val_step(std::shared_ptr<Net> m, const torch::Tensor &x) { return m->forward(x).sum().item<double>(); }
double run_validation(std::shared_ptr<Net> m, const torch::Tensor &x) {
  c10::InferenceMode guard;
  return val_step(m, x);
}

// Not evaluation routines: "interval" is not "val", "testimony" is not "test".
double interval_loss(std::shared_ptr<Net> m, const torch::Tensor &x) { return m->forward(x).sum().item<double>(); }
double testimony(std::shared_ptr<Net> m, const torch::Tensor &x) { return m->forward(x).sum().item<double>(); }

// A user class whose forward() is not a module's.
struct Scorer {
  int forward(int v) { return v + 1; }
};
int evaluate(Scorer &s) { return s.forward(1); }

int main() {
  auto m = std::make_shared<Net>();
  torch::optim::SGD opt(m->parameters(), 0.1);
  auto x = torch::randn({4, 8});
  torch::Tensor out;
  std::vector<torch::Tensor> outs;
  auto p = predict(m, x);
  evaluate_into(m, x, out);
  infer_all(m, x, outs);
  Runner r;
  r.infer(x);
  double a = validate_and_step(m, opt, x) + evaluateLoss(m, x) + run_validation(m, x) + interval_loss(m, x) +
             testimony(m, x);
  Scorer s;
  int e = evaluate(s);
  (void)p;
  (void)a;
  (void)e;
  return 0;
}

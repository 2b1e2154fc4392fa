// torch-alloc-in-forward through parameters, left alone: the factory's arguments come from
// parameters that some call fills with a value read at run time (the input's size, a member set
// from the configuration), whose default is read at run time, whose constant default another
// call overrides with a run-time value, or that a function named other than in calls (a pointer
// taken) may receive from anywhere. Nothing is reported. (Constants at every call, a constant
// default left alone at every call: constant_through_parameters.cpp.)
#include <torch/torch.h>

struct SupportOutput {
  SupportOutput(const torch::Tensor &logits, float lo, float hi, int64_t atoms) : logits(logits) {
    support = torch::linspace(lo, hi, atoms, logits.options());
  }
  torch::Tensor logits, support;
};

torch::Tensor positions(int64_t n, const torch::Tensor &like) { return torch::arange(n, like.options()); }

int64_t configured_count();
torch::Tensor offsets(const torch::Tensor &like, int64_t n = configured_count()) { return torch::arange(n, like.options()); }

torch::Tensor widths(const torch::Tensor &like, int64_t n = 8) { return torch::arange(n, like.options()); }

torch::Tensor steps(int64_t n, const torch::Tensor &like) { return torch::arange(n, like.options()); }
torch::Tensor (*pick_steps)(int64_t, const torch::Tensor &) = steps;

struct Head : torch::nn::Module {
  explicit Head(float bound) : bound(bound) { fc = register_module("fc", torch::nn::Linear(32, 51)); }
  torch::Tensor forward(const torch::Tensor &x) {
    SupportOutput wide(fc->forward(x), -bound, bound, 51);
    SupportOutput fixed(fc->forward(x), -1.0f, 1.0f, 51);
    return wide.support.sum() + fixed.support.sum() + positions(x.size(0), x).sum() + positions(4, x).sum() +
           offsets(x).sum() + steps(3, x).sum() + widths(x).sum() + widths(x, x.size(1)).sum();
  }
  float bound;
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto head = std::make_shared<Head>(10.0f);
  head->to(torch::kCUDA);
  torch::optim::Adam opt(head->parameters());
  for (int step = 0; step < 1000; ++step) {
    auto loss = head->forward(torch::randn({64, 32}, torch::kCUDA)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

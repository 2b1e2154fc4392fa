// torch-frozen-net-grad look-alikes of style_transfer_helpers.cpp: the same helpers, but
// - the helper is handed a network whose parameters the optimizer holds (a student trained through
//   features(), itself called through forward_twice()): trained, not frozen;
// - a second program shape: the extractor is frozen once with requires_grad_(false) before the
//   helpers see it;
// - a helper run only outside training (evaluation after the loop, in a function that trains
//   nothing and that no training function calls).
#include <torch/torch.h>
#include <vector>

struct ExtractorImpl : torch::nn::Module {
  torch::nn::Conv2d c1{nullptr};
  ExtractorImpl() { c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1))); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(c1(x)); }
};
TORCH_MODULE(Extractor);

torch::Tensor features(Extractor &net, const torch::Tensor &x) { return net->forward(x); }

torch::Tensor forward_twice(Extractor &net, const torch::Tensor &x) { return features(net, features(net, x).mean(1, true).expand({-1, 3, -1, -1})); }

torch::Tensor frozen_features(Extractor &net, const torch::Tensor &x) { return net->forward(x); }

torch::Tensor probe(Extractor &net, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return net->forward(x);
}

double evaluate(Extractor &net, const torch::Tensor &x) { return probe(net, x).mean().item<double>(); }

int main() {
  Extractor student;
  torch::optim::SGD opt(student->parameters(), 0.01);
  auto x = torch::rand({4, 3, 16, 16});
  for (int step = 0; step < 100; ++step) {
    auto loss = torch::mse_loss(forward_twice(student, x), x.mean(1, true).expand({-1, 8, -1, -1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }

  Extractor frozen;
  torch::load(frozen, "frozen.pt");
  for (auto &p : frozen->parameters())
    p.requires_grad_(false);
  auto image = x.clone().requires_grad_(true);
  torch::optim::Adam iopt({image}, torch::optim::AdamOptions(0.05));
  for (int step = 0; step < 100; ++step) {
    auto loss = frozen_features(frozen, image).pow(2).mean();
    iopt.zero_grad();
    loss.backward();
    iopt.step();
  }
  return evaluate(student, x) > 0 ? 0 : 1;
}

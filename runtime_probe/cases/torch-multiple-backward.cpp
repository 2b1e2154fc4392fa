// torch-multiple-backward: a two-headed network (a shared trunk, a classification and a
// regression head) trained with one backward() per loss term, the first with retain_graph, then
// one step(), against one backward() of the sum. The before runs the trunk's backward twice (and
// keeps its graph alive between the calls); the gradients agree up to fp32 summation order (the
// trunk's gradient is g1 + g2 accumulated in .grad instead of backpropagated once as a sum).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct TwoHeadsImpl : torch::nn::Module {
  TwoHeadsImpl(int64_t D)
      : trunk(register_module("trunk", torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(),
                                                              torch::nn::Linear(D, D), torch::nn::ReLU()))),
        cls(register_module("cls", torch::nn::Linear(D, 10))), reg(register_module("reg", torch::nn::Linear(D, 1))) {}
  torch::nn::Sequential trunk;
  torch::nn::Linear cls, reg;
};

struct Common : probe::Variant {
  probe::Ctx ctx;
  std::shared_ptr<TwoHeadsImpl> net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, t, ce, mse;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = std::make_shared<TwoHeadsImpl>(D);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
    y = probe::randint(0, 10, {B}, c, 2);
    t = probe::randn({B, 1}, c, 3);
  }
  void losses() {
    torch::Tensor h = net->trunk->forward(x);
    ce = torch::nn::functional::cross_entropy(net->cls->forward(h), y);
    mse = torch::mse_loss(net->reg->forward(h), t);
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"ce", ce.detach()}, {"mse", mse.detach()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      losses();
      opt->zero_grad();
      ce.backward({}, /*retain_graph=*/true);
      mse.backward();
      opt->step();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      losses();
      opt->zero_grad();
      (ce + mse).backward();
      opt->step();
    }
  }
};

} // namespace

PROBE_CASE("torch-multiple-backward", "two-heads-two-backward",
           "two-headed MLP (shared trunk); before: ce.backward({}, true); mse.backward(); after: (ce + "
           "mse).backward()",
           Before, After, (probe::Tolerance{1e-5, 1e-6, "fp32 summation order of the trunk's gradients"}));

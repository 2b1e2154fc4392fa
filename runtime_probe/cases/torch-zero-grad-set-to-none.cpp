// torch-zero-grad-set-to-none: zeroing the gradients writes every gradient tensor once per step
// and the backward pass then accumulates into them (a read-modify-write); resetting them to
// undefined lets backward write fresh gradients. libtorch 1.x's Optimizer::zero_grad() zeroes;
// 2.x takes set_to_none (default true), so "before" passes false there.
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), D = c.size(2048, 1024, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
    x = probe::randn({B, D}, c, 15);
    y = probe::randint(0, 10, {B}, c, 16);
  }
  void forward_backward_update() {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.", /*grads=*/false);
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
#if TORCH_VERSION_MAJOR >= 2
      opt->zero_grad(/*set_to_none=*/false);
#else
      opt->zero_grad();
#endif
      forward_backward_update();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
#if TORCH_VERSION_MAJOR >= 2
      opt->zero_grad(/*set_to_none=*/true);
#else
      for (auto &p : net->parameters())
        p.mutable_grad().reset();
#endif
      forward_backward_update();
    }
  }
};

} // namespace

PROBE_CASE("torch-zero-grad-set-to-none", "zero-vs-reset-grads",
           "3-layer MLP + SGD momentum; before: zero_grad() zeroes the gradients; after: gradients set to none",
           Before, After, (probe::Tolerance{0, 0, "bitwise: 0 + g == g"}));

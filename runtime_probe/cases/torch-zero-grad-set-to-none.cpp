// torch-zero-grad-set-to-none (fix-it case): zeroing the gradients writes every gradient tensor
// once per step and the backward pass then accumulates into them (a read-modify-write); resetting
// them to undefined lets backward write fresh gradients. The "after" is this file after
// `torchlint --fix --checks=-*,torch-zero-grad-set-to-none`: on libtorch 1.x the Optimizer's
// zero_grad() (which always zeroes) becomes the reset loop 2.x runs; on 2.x the explicit
// zero_grad(false) becomes zero_grad(true).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Step : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), D = c.size(2048, 1024, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
    x = probe::randn({B, D}, c, 15);
    y = probe::randint(0, 10, {B}, c, 16);
  }

  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
#if TORCH_VERSION_MAJOR >= 2
      opt->zero_grad(/*set_to_none=*/false);
#else
      opt->zero_grad();
#endif
      loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      loss.backward();
      opt->step();
    }
  }

  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.", /*grads=*/false);
    return o;
  }
};

} // namespace

PROBE_FIXIT_CASE("torch-zero-grad-set-to-none", "zero-vs-reset-grads",
                 "3-layer MLP + SGD momentum; before: zero_grad() zeroes the gradients; after: torchlint's "
                 "fix-it, the gradients reset (set to none)",
                 Step, (probe::Tolerance{0, 0, "bitwise: 0 + g == g"}));

// torch-float64-on-device: TODO a realistic training step with the anti-pattern (Before) against the same step
// written as the check advises (After). The probe counts syncs and allocations per step from
// libtorch's dispatcher and times both variants; the outputs must agree within the tolerance.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
    y = probe::randint(0, 10, {B}, c, 2);
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    // TODO: the anti-pattern, which torch-float64-on-device must report here (probe_cases_lint checks it).
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    // TODO: the same step as the check advises; must be quiet.
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
};

} // namespace

PROBE_CASE("torch-float64-on-device", "float64-on-device",
           "TODO: MLP step; before: ...; after: ...",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same computation"}));

// torch-discarded-conversion: a training step whose input batch arrives transposed (features
// first, as a column-major loader gives it) and that "makes it contiguous" and "converts it to
// half" with statements whose results are discarded (`x.contiguous();`, `x.to(torch::kHalf);`),
// against the same step without them. Both variants compute the same thing (the discarded copies
// change nothing: that is the bug), so the outputs agree bitwise; the probe counts what the before
// pays for nothing: the copy operators and their allocations, per step. (The check's fix-it,
// `x = x.contiguous();`, changes what the step computes, which is its purpose; the probe measures
// the cost of the discarded statement, hence a hand-written after.)
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor xt, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    xt = probe::randn({D, B}, c, 1); // the loader's layout: features first
    y = probe::randint(0, 10, {B}, c, 2);
  }
  void train_step(const torch::Tensor &x) {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
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
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor x = xt.t();
      x.contiguous();       // a copy, discarded: x stays a transposed view
      x.to(torch::kHalf);   // a half copy, discarded: x stays float
      train_step(x);
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor x = xt.t();
      train_step(x);
    }
  }
};

} // namespace

PROBE_CASE("torch-discarded-conversion", "discarded-contiguous-and-cast",
           "MLP step on a transposed batch; before: x.contiguous(); and x.to(torch::kHalf); as statements (results "
           "discarded); after: without them (the same computation)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same computation"}));

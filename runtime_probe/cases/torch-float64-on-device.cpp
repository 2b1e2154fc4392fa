// torch-float64-on-device: an MLP regression step with the model converted to float64 and the
// inputs converted to double on every step (before) against the same step in float32 (after).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 1));
    net->to(c.device);
    x = probe::randn({B, D}, c, 1);
    y = probe::randn({B, 1}, c, 2);
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach().to(torch::kFloat)}};
    for (auto &p : net->named_parameters())
      o.push_back({"net." + p.key(), p.value().detach().to(torch::kFloat)});
    return o;
  }
};

struct Before : Common {
  explicit Before(const probe::Ctx &c) : Common(c) {
    net->to(torch::kDouble); // the whole model in float64
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto xd = x.to(torch::kDouble);
      loss = torch::mse_loss(net->forward(xd), y.to(torch::kDouble));
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
};

struct After : Common {
  explicit After(const probe::Ctx &c) : Common(c) {
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      loss = torch::mse_loss(net->forward(x), y);
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
};

} // namespace

PROBE_CASE("torch-float64-on-device", "mlp-float64",
           "MLP regression step; before: model->to(kDouble) and inputs .to(kDouble) every step; after: float32",
           Before, After, (probe::Tolerance{1e-3, 1e-4, "float32 against float64 arithmetic"}));

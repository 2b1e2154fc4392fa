// torch-debug-api: anomaly detection (torch::autograd::DetectAnomalyGuard / AnomalyMode) left on
// in the training loop records a stack trace for every autograd node and checks every backward
// output for NaN.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{16, 10};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), S = c.size(64, 32, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 19);
    labels = probe::randint(0, 10, {B}, c, 20);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
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
      torch::autograd::DetectAnomalyGuard detect_anomaly;
      train_step();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
};

} // namespace

PROBE_CASE("torch-debug-api", "detect-anomaly-in-loop",
           "ConvNet training step; before: torch::autograd::DetectAnomalyGuard in the loop; after: without",
           Before, After, (probe::Tolerance{0, 0, "bitwise: anomaly mode only checks"}));

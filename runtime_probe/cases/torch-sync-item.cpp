// torch-sync-item: a training loop that reads the loss with item() on every step (seed 004:
// 80 ms -> 57 ms per step) against one that accumulates the loss on the device and reads it once.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
    y = probe::randint(0, 10, {B}, c, 2);
  }
  torch::Tensor train_step() {
    opt->zero_grad();
    torch::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    loss.backward();
    opt->step();
    return loss;
  }
};

struct Before : Common {
  using Common::Common;
  float running_loss = 0;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor loss = train_step();
      running_loss += loss.item<float>(); // syncs every step
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"running_loss", torch::tensor(running_loss)}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct After : Common {
  using Common::Common;
  torch::Tensor running_loss;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor loss = train_step();
      running_loss = running_loss.defined() ? running_loss + loss.detach() : loss.detach();
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"running_loss", running_loss}}; // read once, e.g. per epoch
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

} // namespace

PROBE_CASE("torch-sync-item", "loss-item-per-step",
           "MLP training step; before: running_loss += loss.item<float>() every step; after: running_loss "
           "+= loss.detach() on the device, read once",
           Before, After, (probe::Tolerance{1e-6, 1e-7, "same fp32 additions"}));

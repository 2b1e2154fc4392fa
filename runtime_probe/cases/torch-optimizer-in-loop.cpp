// torch-optimizer-in-loop: an epoch of training (one probe step = one epoch of 4 steps) whose
// Adam optimizer is constructed at the start of every epoch, against one Adam built once. The
// fix changes the training by design: the before restarts Adam's moment estimates every epoch
// (every epoch's first update is Adam's first, bias-corrected from nothing), so from the second
// epoch on the parameters differ. The outputs compared are therefore only the loss of the first
// step (same weights, same data, same optimizer state: bitwise); the probe counts what the before
// allocates again: the state tensors of every parameter, once per epoch.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  torch::Tensor x, y, first_loss;
  int epochs_per_call = 1, steps_per_epoch = 4;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    x = probe::randn({B, D}, c, 1);
    y = probe::randint(0, 10, {B}, c, 2);
  }
  void train_step(torch::optim::Optimizer &opt) {
    torch::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (!first_loss.defined())
      first_loss = loss.detach();
  }
  probe::Outputs outputs() override { return {{"first_loss", first_loss}}; }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int epoch = 0; epoch < epochs_per_call; ++epoch) {
      torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
      for (int s = 0; s < steps_per_epoch; ++s)
        train_step(opt);
    }
  }
};

struct After : Common {
  std::unique_ptr<torch::optim::Adam> opt;
  explicit After(const probe::Ctx &c) : Common(c) {
    opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(1e-3));
  }
  void step() override {
    for (int epoch = 0; epoch < epochs_per_call; ++epoch)
      for (int s = 0; s < steps_per_epoch; ++s)
        train_step(*opt);
  }
};

} // namespace

PROBE_CASE("torch-optimizer-in-loop", "adam-per-epoch",
           "MLP, one epoch of 4 steps per probe step; before: torch::optim::Adam constructed at every epoch; after: "
           "constructed once (the training differs by design from the second epoch on)",
           Before, After,
           (probe::Tolerance{0, 0, "bitwise on the first step's loss only: the before restarts Adam every epoch"}));

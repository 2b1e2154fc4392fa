// torch-sync-nonzero: seed 003's "ignore background" step. torch::nonzero's output size depends
// on the data, so on CUDA the host waits for the GPU; torch::where gives the same labels with a
// fixed-size output and no sync.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  probe::SegNet net{4, 10, 10};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;
  static constexpr int64_t C = 10, kIgnore = -1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(32, 4, 2), S = c.size(256, 64, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));
    images = probe::randn({B, 3, S, S}, c, 4);
    labels = probe::randint(-1, C, {B, S, S}, c, 5);
  }
  void train_on(const torch::Tensor &target) {
    torch::Tensor logits = net->forward(images);
    loss = torch::nn::functional::cross_entropy(
        logits, target, torch::nn::functional::CrossEntropyFuncOptions().ignore_index(kIgnore));
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
      torch::Tensor target = labels.clone();
      torch::Tensor idx = torch::nonzero(target == C - 1); // data-dependent size: syncs on CUDA
      target.index_put_({idx.select(1, 0), idx.select(1, 1), idx.select(1, 2)}, kIgnore);
      train_on(target);
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor target = torch::where(labels == C - 1, torch::full_like(labels, kIgnore), labels);
      train_on(target);
    }
  }
};

} // namespace

PROBE_CASE("torch-sync-nonzero", "ignore-background",
           "seed 003 segmentation step; before: target[torch::nonzero(target == 9)] = -1; after: torch::where",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same labels, same training step", 1e-6, 1e-7,
                             "same labels, same step; CUDA's nll_loss2d sums with atomics (no deterministic kernel): ~1 ulp"}));

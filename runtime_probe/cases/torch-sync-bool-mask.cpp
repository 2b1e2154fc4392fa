// torch-sync-bool-mask: seed 003's masked cross-entropy. Indexing with a boolean mask gives a
// data-dependent shape (a sync on CUDA); cross_entropy's ignore_index computes the same mean
// over the valid pixels with fixed shapes.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

namespace F = torch::nn::functional;

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
  void update() {
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
      torch::Tensor logits = net->forward(images);
      torch::Tensor mask = labels != kIgnore;
      torch::Tensor valid_logits = logits.permute({0, 2, 3, 1}).index({mask}); // [N, C], N from the data
      torch::Tensor valid_labels = labels.index({mask});
      loss = F::cross_entropy(valid_logits, valid_labels);
      update();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor logits = net->forward(images);
      loss = F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().ignore_index(kIgnore));
      update();
    }
  }
};

} // namespace

PROBE_CASE("torch-sync-bool-mask", "masked-cross-entropy",
           "seed 003 loss; before: logits.index({mask}) and labels.index({mask}); after: cross_entropy with "
           "ignore_index",
           Before, After, (probe::Tolerance{1e-4, 1e-6, "fp32, different reduction order"}));

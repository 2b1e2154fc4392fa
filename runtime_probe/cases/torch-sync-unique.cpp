// torch-sync-unique: seed 003's "update only when the target has two or more labels". unique()'s
// output size depends on the data (a sync on CUDA); sort + count_nonzero of the steps + where
// gives the same decision on the device.
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

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(32, 4, 2), S = c.size(256, 64, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));
    images = probe::randn({B, 3, S, S}, c, 4);
    labels = probe::randint(-1, 10, {B, S, S}, c, 5);
  }
  torch::Tensor ce() {
    return F::cross_entropy(net->forward(images), labels, F::CrossEntropyFuncOptions().ignore_index(-1));
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
      torch::Tensor unique = std::get<0>(torch::_unique(labels)); // data-dependent size: syncs
      loss = ce();
      if (unique.numel() < 2)
        loss = loss * 0.;
      update();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor sorted = std::get<0>(labels.flatten().sort());
      torch::Tensor num_unique = torch::count_nonzero(sorted.slice(0, 1) - sorted.slice(0, 0, -1)) + 1;
      loss = ce();
      loss = torch::where(num_unique < 2, loss * 0., loss);
      update();
    }
  }
};

} // namespace

PROBE_CASE("torch-sync-unique", "count-labels",
           "seed 003 loss; before: torch::_unique(target).numel() < 2 on the host; after: sort, count the steps, "
           "torch::where on the device",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same loss, same update", 1e-6, 1e-7,
                             "same loss, same update; CUDA's nll_loss2d sums with atomics (no deterministic kernel): ~1 ulp"}));

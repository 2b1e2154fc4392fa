// torch-amp (split case, before): a convolutional training step in fp32. Its after, the same step
// with the forward pass and loss under autocast (bf16: no GradScaler needed; libtorch has none), is
// in torch-amp.after.cpp: torch-amp judges the whole file ("a CUDA training loop in float32 in a
// file that never enables autocast"), so an after in this file would silence it for the before
// too. On CUDA bf16 runs on tensor cores; on the CPU autocast uses bf16 too, which is slow without
// AVX512-BF16/AMX.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{64, 10};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(128, 16, 4), S = c.size(128, 32, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 63);
    labels = probe::randint(0, 10, {B}, c, 64);
  }
  void update() {
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.", /*grads=*/false);
    return o;
  }
};

} // namespace

// The after file includes this one with PROBE_SPLIT_AFTER defined, for the shared code above.
#ifndef PROBE_SPLIT_AFTER
namespace {

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
      update();
    }
  }
};

} // namespace

PROBE_BEFORE("torch-amp", "autocast-bf16",
             "ConvNet training; before: fp32; after: forward and loss under autocast (bf16)", Before,
             (probe::Tolerance{5e-2, 2e-2, "bf16 autocast: ~3 significant digits"}));
#endif

// torch-eval-no-grad (fix-it case): an evaluation routine that switches the model to eval() and runs
// it without torch::NoGradGuard records the autograd graph and keeps every activation alive for a
// backward pass that never comes. The "after" is this file after
// `torchlint --fix --checks=-*,torch-eval-no-grad`, which declares `torch::NoGradGuard no_grad;` at
// the start of the evaluation function.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Step : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{32, 10};
  torch::Tensor images, labels, correct, logits;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 32, 4), S = c.size(64, 32, 16);
    net->to(c.device);
    for (auto &p : net->parameters()) // a model in training: its parameters require gradients
      p.requires_grad_(true);
    images = probe::randn({B, 3, S, S}, c, 17);
    labels = probe::randint(0, 10, {B}, c, 18);
    correct = torch::zeros({}, c.on().dtype(torch::kLong));
  }
  /// The validation pass a training program runs between epochs: eval mode, then forward over the
  /// validation batches, counting the correct predictions on the device.
  void step() override {
    net->eval();
    for (int s = 0; s < steps_per_call; ++s) {
      logits = net->forward(images);
      correct += (logits.argmax(1) == labels).sum();
    }
  }
  probe::Outputs outputs() override {
    return {{"correct", correct}, {"logits", logits.detach()}};
  }
};

} // namespace

PROBE_FIXIT_CASE("torch-eval-no-grad", "eval-loop",
                 "ConvNet evaluation (eval mode); before: no NoGradGuard; after: torchlint's fix-it, "
                 "torch::NoGradGuard at the start of the evaluation function",
                 Step, (probe::Tolerance{0, 0, "bitwise: same forward"}));

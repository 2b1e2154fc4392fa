// torch-eval-no-grad: an evaluation loop without torch::NoGradGuard records the autograd graph
// and keeps every activation alive for a backward pass that never comes.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{32, 10};
  torch::Tensor images, labels, correct, logits;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 32, 4), S = c.size(64, 32, 16);
    net->to(c.device);
    for (auto &p : net->parameters())
      p.requires_grad_(true);
    images = probe::randn({B, 3, S, S}, c, 17);
    labels = probe::randint(0, 10, {B}, c, 18);
    correct = torch::zeros({}, c.on().dtype(torch::kLong));
  }
  void evaluate_batch() {
    logits = net->forward(images);
    correct += (logits.argmax(1) == labels).sum();
  }
  probe::Outputs outputs() override {
    return {{"correct", correct}, {"logits", logits.detach()}};
  }
};

struct Before : Common {
  explicit Before(const probe::Ctx &c) : Common(c) { net->eval(); }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      evaluate_batch(); // records the graph
  }
};

struct After : Common {
  explicit After(const probe::Ctx &c) : Common(c) { net->eval(); }
  void step() override {
    torch::NoGradGuard no_grad;
    for (int s = 0; s < steps_per_call; ++s)
      evaluate_batch();
  }
};

} // namespace

PROBE_CASE("torch-eval-no-grad", "eval-loop",
           "ConvNet evaluation (eval mode); before: no NoGradGuard; after: torch::NoGradGuard around the loop",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same forward"}));

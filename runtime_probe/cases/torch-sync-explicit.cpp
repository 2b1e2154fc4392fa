// torch-sync-explicit: torch::cuda::synchronize() inside the training loop (typically left over
// from timing code) drains the GPU queue on every step; the loop without it queues ahead.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace probe {
/// Records an explicit device synchronisation where a CUDA program would call
/// torch::cuda::synchronize(): the CPU probe cannot call it (a CPU-only libtorch throws), and the
/// dispatcher never sees it. Counted as one sync by the probe's counters (Counting.cpp).
void recordExplicitSync();
} // namespace probe

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(128, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 10);
    y = probe::randint(0, 10, {B}, c, 11);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
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
      train_step();
      if (ctx.cuda()) // torch::cuda::synchronize() throws on a CPU-only libtorch
        torch::cuda::synchronize();
      else
        probe::recordExplicitSync(); // what the CPU probe counts in its place
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

PROBE_CASE("torch-sync-explicit", "synchronize-per-step",
           "MLP step; before: torch::cuda::synchronize() after every step; after: none (the CPU probe records the "
           "call for its sync count instead of making it, so CPU timings show 1x)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same computation"}));

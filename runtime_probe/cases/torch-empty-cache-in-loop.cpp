// torch-empty-cache-in-loop: a training loop that flushes the CUDA caching allocator after every
// step (c10::cuda::CUDACachingAllocator::emptyCache()) against the same loop without the flush.
// On CUDA the flush frees every cached block with cudaFree (which waits for the device) and the
// next step allocates them again with cudaMalloc. The CPU cannot show either: a CPU-only libtorch
// has no CUDA allocator, and its CPU allocator caches nothing. There the before calls a stand-in
// that records the flush as the one device synchronisation it makes (probe::recordExplicitSync,
// counted as "explicit synchronize"), and the probe counts the allocations a step makes, which
// after a flush are the cudaMalloc calls the caching allocator cannot serve from its cache.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace probe {
/// Records a device synchronisation where the CUDA program makes one (Counting.cpp).
void recordExplicitSync();
} // namespace probe

// probe:lint-quiet 1: Debian's CPU-only 1.13 cannot compile c10/cuda/CUDACachingAllocator.h (no
// cuda_cmake_macros.h), so against 1.13 the before calls a stand-in that only shares the name and
// torch-empty-cache-in-loop rightly stays quiet; the case is linted against libtorch 2.x headers
// for it (ctest probe_cases_lint_torch2).
#if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) && __has_include(<cuda_runtime_api.h>)
#include <c10/cuda/CUDACachingAllocator.h>
namespace cache = c10::cuda::CUDACachingAllocator;
#else
namespace cache {
void emptyCache() { probe::recordExplicitSync(); }
} // namespace cache
#endif

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 62);
    y = probe::randint(0, 10, {B}, c, 63);
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
      cache::emptyCache(); // returns the step's freed blocks to the driver
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

PROBE_CASE("torch-empty-cache-in-loop", "empty-cache-per-step",
           "MLP step; before: CUDACachingAllocator::emptyCache() after every step; after: none (on the CPU the "
           "before records the flush's device synchronisation instead of making it, so CPU timings show 1x)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same computation"}));

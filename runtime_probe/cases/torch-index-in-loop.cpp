// torch-index-in-loop: a per-row loop in the step (centre each row of the features on its mean
// and divide by its L2 norm, with x[i] and out[i] = ...) against the vectorised expression over
// the row dimension. The loop dispatches the indexing and every operation once per row; the
// vectorised form once. (Not std(): its CPU kernel over a whole tensor reads the mean with item(),
// which would count as syncs here that a CUDA run does not make.)
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::Tensor x, out;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t R = c.size(512, 256, 16), D = c.size(256, 128, 8);
    x = probe::randn({R, D}, c, 61);
  }
  probe::Outputs outputs() override { return {{"out", out}}; }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      out = torch::empty_like(x);
      for (int64_t i = 0; i < x.size(0); ++i)
        out[i] = (x[i] - x[i].mean()) / (x[i].pow(2).sum().sqrt() + 1e-5);
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      out = (x - x.mean(1, /*keepdim=*/true)) / (x.pow(2).sum(1, /*keepdim=*/true).sqrt() + 1e-5);
  }
};

} // namespace

PROBE_CASE("torch-index-in-loop", "row-standardise",
           "per-row centring and L2 scaling of a [R, D] feature matrix; before: a loop over x.size(0) with "
           "x[i], x[i].mean(), x[i].pow(2).sum().sqrt() and out[i] = ...; after: one expression over dim 1",
           Before, After, (probe::Tolerance{1e-5, 1e-6, "fp32 reduction order (row vs dim reductions)"}));

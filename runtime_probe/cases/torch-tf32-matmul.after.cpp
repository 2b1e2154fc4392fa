// torch-tf32-matmul (split case, after; the before and the reason for two files are in
// torch-tf32-matmul.cpp): the same MLP training step with TF32 allowed for cuBLAS.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)

#define PROBE_SPLIT_AFTER 1
#include "torch-tf32-matmul.cpp" // the shared code: model, data, training step (struct Common)

namespace {

/// Allows TF32 for cuBLAS for the step and restores the previous setting (the probe runs both
/// variants in one process).
struct AllowTf32 {
  bool was = at::globalContext().allowTF32CuBLAS();
  AllowTf32() { at::globalContext().setAllowTF32CuBLAS(true); }
  ~AllowTf32() { at::globalContext().setAllowTF32CuBLAS(was); }
};

struct After : Common {
  using Common::Common;
  void step() override {
    AllowTf32 tf32;
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
};

} // namespace

PROBE_AFTER("torch-tf32-matmul", "mlp-tf32", After);

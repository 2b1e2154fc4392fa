// torch-float64-on-device: float64 (kDouble, kFloat64) computation on the GPU in a program that
// trains on CUDA: a module converted with `->to(torch::kDouble)`, a tensor converted to double on
// the device in the step, a double tensor made on the device, or a double host tensor copied to the
// device in the step. Most GPUs run float64 arithmetic at 1/32 to 1/64 of the float32 rate
// (consumer and most workstation parts; the FP64 data-center parts at 1/2), have no tensor-core
// path for it in cuBLAS/cuDNN, and every double tensor moves twice the bytes of a float one. Keep
// the model and its inputs in float32 (or lower) and keep float64 on the host, for metrics and
// accumulators. Not reported: CPU-only programs, double tensors provably on the host, small
// tensors of a proven shape (a double accumulator of a few elements), conversions in code that
// runs once (a checkpoint converted on load). docs/checks/torch-float64-on-device.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-float64-on-device: Module::to(kDouble), Tensor::to(kDouble) / .double() on a tensor not
/// provably on the host, factories with a double dtype and a device, `.to(device)` of a provably
/// double tensor.
class Float64OnDeviceCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

// torch-discarded-conversion: a Tensor conversion (`x.to(device);`, `x.cuda();`, `x.contiguous();`,
// `x.to(torch::kFloat);`, `x.float();`, ...) written as a statement of its own. Tensor's
// conversions return a new tensor and leave `x` as it was (Module::to() converts in place,
// Tensor::to() does not), so the copy or cast runs for nothing and the code after it still uses
// the unconverted `x`: a bug as much as a cost. The fix is `x = x.to(device);` (a fix-it where `x`
// is a local variable, a by-value parameter or a field of `this`). Reported wherever it is written,
// hot or not. docs/checks/torch-discarded-conversion.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-discarded-conversion: a Tensor method that returns a converted copy (to, cuda, cpu,
/// contiguous, float, double, half, ...) whose result is discarded.
class DiscardedConversionCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

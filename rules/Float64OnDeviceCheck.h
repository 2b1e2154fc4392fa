// torch-float64-on-device: TODO one paragraph: what the check finds, why it costs time on the GPU, and what the
// fix is. docs/checks/torch-float64-on-device.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-float64-on-device: TODO the code pattern matched, in one sentence.
class Float64OnDeviceCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

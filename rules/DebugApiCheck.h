#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-debug-api: anomaly detection and the autograd profiler left on. docs/checks/torch-debug-api.md
class DebugApiCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

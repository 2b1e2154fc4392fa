#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-pointwise-fusion: a chain of four or more elementwise ops on one tensor in hot code.
/// docs/checks/torch-pointwise-fusion.md
class PointwiseFusionCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

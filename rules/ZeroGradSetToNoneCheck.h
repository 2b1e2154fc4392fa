#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-zero-grad-set-to-none: zero_grad() that zeroes gradients instead of resetting them.
/// docs/checks/torch-zero-grad-set-to-none.md
class ZeroGradSetToNoneCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

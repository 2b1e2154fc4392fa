#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-alloc-in-forward: tensors built from constants on every forward() call. docs/checks/torch-alloc-in-forward.md
class AllocInForwardCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

#pragma once
#include "TorchCheck.h"

namespace torchlint {

/// torch-sync-item: Tensor::item() in hot code. docs/checks/torch-sync-item.md
class SyncItemCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

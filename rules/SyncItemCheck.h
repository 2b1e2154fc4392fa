#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-item: Tensor::item() in hot code. docs/checks/torch-sync-item.md
class SyncItemCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

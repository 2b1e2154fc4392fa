#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-nonzero: nonzero/argwhere/nonzero_numpy/one-argument where in hot code. docs/checks/torch-sync-nonzero.md
class SyncNonzeroCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

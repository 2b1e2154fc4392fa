#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-value-branch: control flow on tensor values in hot code. docs/checks/torch-sync-value-branch.md
class SyncValueBranchCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

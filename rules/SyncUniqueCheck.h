#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-unique: unique and its variants in hot code. docs/checks/torch-sync-unique.md
class SyncUniqueCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

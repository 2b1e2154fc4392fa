#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-print: printing a device tensor in hot code. docs/checks/torch-sync-print.md
class SyncPrintCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-explicit: explicit device/stream/event synchronization in hot code. docs/checks/torch-sync-explicit.md
class SyncExplicitCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

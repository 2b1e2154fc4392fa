#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-ddp-no-sync: a gradient all-reduce on every iteration of a loop whose optimizer step is conditional on an
/// accumulation counter. docs/checks/torch-ddp-no-sync.md
class DdpNoSyncCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: the loop: an all-reduce with no no_sync-like skip around it
  /// (Recovery.h).
  Evidence evidence() const override { return Evidence::Function; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

#pragma once
#include "TorchCheck.h"

namespace torchlint {

/// torch-ddp-no-sync: a gradient all-reduce on every iteration of a loop whose optimizer step is conditional on an accumulation counter. docs/checks/torch-ddp-no-sync.md
class DdpNoSyncCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

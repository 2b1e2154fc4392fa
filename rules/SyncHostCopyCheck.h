#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-host-copy: device-to-host copies (.cpu(), .to(kCPU), host reads of device memory) in hot code.
/// docs/checks/torch-sync-host-copy.md
class SyncHostCopyCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

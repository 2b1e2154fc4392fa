#pragma once
#include "checkbase/SyncCheck.h"

namespace torchlint {

/// torch-sync-bool-mask: indexing with a boolean tensor and masked_select in hot code.
/// docs/checks/torch-sync-bool-mask.md
class SyncBoolMaskCheck : public SyncCheck {
public:
  using SyncCheck::SyncCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

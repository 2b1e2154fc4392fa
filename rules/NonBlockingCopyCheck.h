#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-non-blocking-copy: batches moved to the device without non_blocking. docs/checks/torch-non-blocking-copy.md
class NonBlockingCopyCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

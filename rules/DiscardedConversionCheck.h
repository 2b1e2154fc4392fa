// torch-discarded-conversion: TODO one paragraph: what the check finds, why it costs time on the GPU, and what the
// fix is. docs/checks/torch-discarded-conversion.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-discarded-conversion: TODO the code pattern matched, in one sentence.
class DiscardedConversionCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

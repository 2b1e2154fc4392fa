// torch-from-blob-pinned: TODO one paragraph: what the check finds, why it costs time on the GPU, and what the
// fix is. docs/checks/torch-from-blob-pinned.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-from-blob-pinned: TODO the code pattern matched, in one sentence.
class FromBlobPinnedCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

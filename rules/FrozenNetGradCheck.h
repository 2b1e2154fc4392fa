// torch-frozen-net-grad: TODO one paragraph: what the check finds, why it costs time on the GPU, and what the
// fix is. docs/checks/torch-frozen-net-grad.md
#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-frozen-net-grad: TODO the code pattern matched, in one sentence.
class FrozenNetGradCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

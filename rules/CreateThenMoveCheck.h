#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-create-then-move: torch::zeros(...).cuda() and friends. docs/checks/torch-create-then-move.md
class CreateThenMoveCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

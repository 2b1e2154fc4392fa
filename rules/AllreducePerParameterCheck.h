#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-allreduce-per-parameter: one all-reduce per parameter in a loop over parameters instead of bucketed
/// all-reduce. docs/checks/torch-allreduce-per-parameter.md
class AllreducePerParameterCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

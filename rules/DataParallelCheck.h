#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-data-parallel: torch::nn::parallel::data_parallel in hot code. docs/checks/torch-data-parallel.md
class DataParallelCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

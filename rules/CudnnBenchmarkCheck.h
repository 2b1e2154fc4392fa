#pragma once
#include "TorchCheck.h"

namespace torchlint {

/// torch-cudnn-benchmark: a CUDA conv-net trained without the cuDNN auto-tuner. docs/checks/torch-cudnn-benchmark.md
class CudnnBenchmarkCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-cudnn-benchmark: a CUDA conv-net trained without the cuDNN auto-tuner. docs/checks/torch-cudnn-benchmark.md
class CudnnBenchmarkCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: a program-wide absence: nothing enables the auto-tuner
  /// (Recovery.h).
  /// The finding says no cuDNN set-up exists: code with errors anywhere in the file matters only
  /// where it names one of the set-up calls (check(): erroneousCodeNames), not the whole file.
  Evidence evidence() const override { return Evidence::Expression; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

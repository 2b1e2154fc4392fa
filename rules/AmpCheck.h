#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-amp: a CUDA training loop in float32 with no autocast anywhere. docs/checks/torch-amp.md
class AmpCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: a file-wide absence: no autocast anywhere (Recovery.h).
  Evidence evidence() const override { return Evidence::TranslationUnit; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const clang::CallExpr *First = nullptr; // the earliest backward() in hot code
  clang::SourceLocation FirstLoc;
  clang::ASTContext *Ctx = nullptr;
};

} // namespace torchlint

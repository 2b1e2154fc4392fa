#pragma once
#include "checkbase/TorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace torchlint {

/// torch-conv-bias-before-bn: a biased convolution straight into batch norm. docs/checks/torch-conv-bias-before-bn.md
class ConvBiasBeforeBnCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: an absence: bias(false) nowhere on the way from
  /// the options (helpers, members). Distrusted only when that way has errors (core/Recovery.h's
  /// evidenceRestsOnErrors on the conv, its construction and options, the BatchNorm), not for
  /// errors elsewhere in the file (issue 24).
  Evidence evidence() const override { return Evidence::Expression; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }

private:
  /// Reports Conv (a conv module expression of Dims dimensions whose output feeds BN) when its
  /// bias resolves to true, with a fix where one edit suffices. With Flag, the output feeds BN only
  /// under `if (flag)` (a bool field fixed at construction): the advice is `.bias(!flag)`, no fix.
  void checkPair(const clang::Expr *Conv, int Dims, llvm::StringRef How, const clang::Expr *BN, clang::ASTContext &Ctx,
                 const clang::Expr *ReportAt = nullptr, const clang::FieldDecl *Flag = nullptr);
  /// The TU is an inference-only program: it never trains (no backward(), optimizer, Module::train(),
  /// autograd::grad()) and shows inference (Module::eval(), torch::load of weights). Quiet there.
  static bool inferenceOnlyProgram(clang::ASTContext &Ctx);
  /// Constructions reported in this TU (a conv used in several places is reported once).
  llvm::DenseSet<unsigned> Reported;
};

} // namespace torchlint

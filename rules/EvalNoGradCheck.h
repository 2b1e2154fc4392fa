#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-eval-no-grad: evaluation after eval() with gradient recording on. docs/checks/torch-eval-no-grad.md
class EvalNoGradCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: an absence (Recovery.h), decided per shape in the rule, before
  /// each report(): the eval() call and the evaluation routine rest on the callers of their function (no guard
  /// around any call of it in the TU), so on the functions that lead to it and code with errors that names one of them
  /// (callChainRestsOnErrors); the model run again after
  /// its training rests on its own function and the user functions called after the evaluation
  /// (afterTrainingRestsOnErrors). Every report() of this check must ask one of them first.
  Evidence evidence() const override { return Evidence::Expression; }
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// An evaluation or inference routine (by name) that runs forward() without eval().
  void checkRoutine(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  /// For an eval() inside a loop of a function that also trains: the evaluation region after it
  /// (to the next train(), or the end of the loop body around it; End) needs no
  /// gradients (no training call, no requires_grad switch, no user function that might). With
  /// Elsewhere (project mode), the user functions it calls whose bodies are in other files, or
  /// in none, go there for the project model to answer, as mayNeedGradientsHere's do.
  bool evaluationRegion(const clang::CallExpr *Eval, const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                        clang::SourceLocation &End, std::vector<std::string> *Elsewhere) const;
  /// The model trained by a loop of FD run again after it (evaluation after training) with gradient
  /// recording on.
  void checkAfterTraining(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  /// Whether FD may need gradients (analysis/Autograd.h mayNeedGradients). In project mode the user
  /// functions it calls whose bodies are in other files do not count: their USRs go to Elsewhere,
  /// for the project model to decide (reportFinding).
  bool mayNeedGradientsHere(const clang::FunctionDecl *FD, std::vector<std::string> &Elsewhere) const;
  /// report(), or, when functions of other files must not need gradients, reportForProject().
  clang::DiagnosticBuilder reportFinding(clang::SourceLocation Loc, llvm::StringRef Msg,
                                         const std::vector<std::string> &Elsewhere);
};

} // namespace torchlint

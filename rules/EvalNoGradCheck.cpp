#include "EvalNoGradCheck.h"
#include "Autograd.h"
#include "NnModules.h"
#include "SetupFixes.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void EvalNoGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("eval"), ofClass(hasName("::torch::nn::Module"))))).bind("call"),
      this);
}

namespace {
template <class F> void forEachCall(const Stmt *S, F &&Fn) {
  if (!S)
    return;
  if (const auto *C = dyn_cast<CallExpr>(S))
    Fn(C);
  for (const Stmt *Ch : S->children())
    forEachCall(Ch, Fn);
}

bool declaresName(const Stmt *S, llvm::StringRef Name) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *ND = dyn_cast<NamedDecl>(D))
        if (ND->getDeclName().isIdentifier() && ND->getName() == Name)
          return true;
  for (const Stmt *C : S->children())
    if (declaresName(C, Name))
      return true;
  return false;
}
} // namespace

void EvalNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, SM) || Loc.isMacroID())
    return;
  const FunctionDecl *FD = enclosingFunction(Call, Ctx);
  if (!FD || !FD->getBody())
    return;
  // Quiet where gradients are needed or grad mode is managed by hand.
  if (mayNeedGradients(FD))
    return;
  bool Manual = false;
  const CallExpr *Forward = nullptr;
  forEachCall(FD->getBody(), [&](const CallExpr *C) {
    if (const FunctionDecl *Callee = C->getDirectCallee())
      if (Callee->getQualifiedNameAsString() == "c10::GradMode::set_enabled" ||
          Callee->getQualifiedNameAsString() == "c10::AutoGradMode::AutoGradMode")
        Manual = true;
    if (Forward || SM.isBeforeInTranslationUnit(C->getBeginLoc(), Call->getBeginLoc()))
      return;
    if (moduleOfForwardCall(C) && !gradDisabledAt(C, Ctx))
      Forward = C;
  });
  if (Manual || !Forward || gradDisabledAt(Call, Ctx))
    return;

  std::string Msg = "module evaluated after eval() with gradient recording on: forward() at line " +
                    std::to_string(SM.getSpellingLineNumber(Forward->getBeginLoc())) +
                    " saves every activation for a backward() that never comes; add `torch::NoGradGuard "
                    "no_grad;` (or c10::InferenceMode) to the evaluation scope";
  auto D = report(Loc, Msg);
  // The guard also stops gradients of what the function returns: only fix functions that return
  // no tensors.
  QualType Ret = FD->getReturnType();
  if (!(Ret->isVoidType() || Ret->isArithmeticType()) || declaresName(FD->getBody(), "no_grad"))
    return;
  std::vector<FixItHint> Fixes;
  if (insertAtFunctionStart(FD, "torch::NoGradGuard no_grad;", Ctx, Fixes))
    for (const FixItHint &F : Fixes)
      D << F;
}

} // namespace torchlint

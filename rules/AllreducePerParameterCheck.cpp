#include "rules/AllreducePerParameterCheck.h"
#include "analysis/Collectives.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// module->parameters() / named_parameters(), directly or through a local variable initialized
/// with one.
bool isParametersExpr(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return false;
  // Range inits and initializers come wrapped in ExprWithCleanups/MaterializeTemporaryExpr.
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E))
    if (C->getNumArgs() == 1)
      return isParametersExpr(C->getArg(0), Depth + 1);
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() &&
        (MD->getName() == "parameters" || MD->getName() == "named_parameters")) {
      const CXXRecordDecl *RD = MD->getParent();
      return RD->getQualifiedNameAsString() == "torch::nn::Module" || isModuleClass(RD);
    }
    return false;
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
      if (V->isLocalVarDecl() && V->getInit())
        return isParametersExpr(V->getInit(), Depth + 1);
  return false;
}

/// `i < params.size()` where params holds the parameters.
bool conditionBoundsParameters(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = M->getMethodDecl();
    if (MD && MD->getDeclName().isIdentifier() && MD->getName() == "size" &&
        isParametersExpr(M->getImplicitObjectArgument()))
      return true;
  }
  for (const Stmt *C : S->children())
    if (conditionBoundsParameters(C))
      return true;
  return false;
}

bool isLoopOverParameters(const Stmt *Loop) {
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return isParametersExpr(R->getRangeInit());
  if (const auto *F = dyn_cast_or_null<ForStmt>(Loop))
    return conditionBoundsParameters(F->getCond());
  return false;
}

bool isWaitCall(const Stmt *S) {
  const auto *M = dyn_cast_or_null<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = M ? M->getMethodDecl() : nullptr;
  return MD && MD->getDeclName().isIdentifier() && MD->getName() == "wait";
}

bool mentionsVar(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    if (R->getDecl() == V)
      return true;
  for (const Stmt *C : S->children())
    if (mentionsVar(C, V))
      return true;
  return false;
}

bool waitsOn(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (isWaitCall(S) && mentionsVar(cast<CXXMemberCallExpr>(S)->getImplicitObjectArgument(), V))
    return true;
  for (const Stmt *C : S->children())
    if (waitsOn(C, V))
      return true;
  return false;
}

/// The all-reduce's Work is waited on right away: `pg->allreduce(v)->wait()`, or
/// `auto w = pg->allreduce(v); w->wait();` in the same loop body.
bool waitedImmediately(const CallExpr *Call, const Stmt *Loop, ASTContext &Ctx) {
  // The hot-code analysis' parent map of user code: no parent map of all of libtorch.
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Stmt *Cur = Call;
  for (unsigned I = 0; I < 8; ++I) {
    const Stmt *P = H.parentOf(Cur);
    if (!P)
      return false;
    if (isWaitCall(P))
      return true;
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      const auto *V = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
      if (!V)
        return false;
      const Stmt *Body = nullptr;
      if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
        Body = R->getBody();
      else if (const auto *F = dyn_cast<ForStmt>(Loop))
        Body = F->getBody();
      return waitsOn(Body, V);
    }
    const auto *E = dyn_cast<Expr>(P);
    if (!E || (isa<CallExpr>(E) && !isa<CXXOperatorCallExpr>(E)))
      return false;
    Cur = P;
  }
  return false;
}

} // namespace

void AllreducePerParameterCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName("allreduce", "allreduce_coalesced", "allreduce_",
                                                             "allreduce_coalesced_"))))
                         .bind("call"),
                     this);
}

void AllreducePerParameterCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  if (!isAllReduceCall(Call) || !inUserCode(Call->getExprLoc(), *Result.SourceManager))
    return;
  const Stmt *Loop = HotCodeAnalysis::get(Ctx).enclosingLoop(Call);
  if (!isLoopOverParameters(Loop))
    return;
  std::string Msg = "one all-reduce per parameter: this loop over the model's parameters issues a separate "
                    "collective for every parameter tensor, each paying the full launch and network latency";
  if (waitedImmediately(Call, Loop, Ctx))
    Msg += ", and waits for each before issuing the next, so none overlap";
  Msg += "; flatten the gradients into buckets (torch::cat of the flattened grads, or one allreduce_coalesced "
         "over the whole list) and all-reduce once per bucket";
  report(Call->getExprLoc(), Msg);
}

} // namespace torchlint

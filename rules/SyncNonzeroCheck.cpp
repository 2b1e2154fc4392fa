#include "rules/SyncNonzeroCheck.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

static const char Message[] =
    " returns a tensor whose size depends on the data, so the CPU waits for the GPU to finish "
    "all queued work to learn it; keep shapes fixed: torch::where(cond, a, b) instead of nonzero "
    "plus index assignment, masked_fill_/multiplication by the mask instead of gathering the "
    "selected elements";

/// The tensor a call works on: the object of a member call, else the first tensor argument.
static const Expr *tensorOperand(const CallExpr *C) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    return MC->getImplicitObjectArgument();
  for (const Expr *A : C->arguments())
    if (isTensorType(A->getType()))
      return A;
  return nullptr;
}

void SyncNonzeroCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("nonzero", "argwhere", "nonzero_numpy"), isInTorchHeaders())))
          .bind("call"),
      this);
  // The one-argument torch::where(cond) is nonzero(cond, as_tuple=true).
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasName("where"), parameterCountIs(1), isInTorchHeaders()))).bind("call"), this);
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("where"), parameterCountIs(0), isTensorMethod()))).bind("call"),
      this);
  // count_nonzero(...) read on the host: the host read is the sync; torch-sync-item reports it
  // when it runs, so this one only when it does not.
  Finder->addMatcher(
      cxxMemberCallExpr(
          callee(cxxMethodDecl(hasName("item"), isTensorMethod())),
          on(ignoringImplicit(
              callExpr(callee(functionDecl(hasName("count_nonzero"), isInTorchHeaders()))).bind("count"))))
          .bind("read"),
      this);
}

void SyncNonzeroCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Count = Result.Nodes.getNodeAs<CallExpr>("count")) {
    if (isCheckEnabled("torch-sync-item"))
      return;
    auto Site = assess(Count, tensorOperand(Count), Ctx);
    if (!Site)
      return;
    reportSync(Count->getExprLoc(),
               "count_nonzero(...).item() reads the count on the host and blocks until the GPU has caught "
               "up; keep the count on the device (compare it with torch::where, or accumulate it) and read "
               "it once per logging interval",
               *Site);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *FD = Call->getDirectCallee();
  if (!FD)
    return;
  auto Site = assess(Call, tensorOperand(Call), Ctx);
  if (!Site)
    return;
  std::string Subject = FD->getNameAsString() + "()";
  if (FD->getName() == "where")
    Subject = "where(cond) with one argument is nonzero(cond, as_tuple=true): it";
  reportSync(Call->getExprLoc(), Subject + Message, *Site);
}

} // namespace torchlint

#include "rules/EmptyCacheInLoopCheck.h"
#include "analysis/RarePath.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void EmptyCacheInLoopCheck::registerMatchers(MatchFinder *Finder) {
  // c10::cuda::CUDACachingAllocator::emptyCache() (1.13 and 2.x), at::accelerator::emptyCache()
  // (2.x), and the allocator's own emptyCache() method reached through get() (2.x).
  Finder->addMatcher(callExpr(callee(functionDecl(hasName("emptyCache"), isInTorchHeaders()))).bind("call"), this);
}

namespace {
/// True when S only runs on some iterations of the loop around it: it sits in a catch handler
/// (the usual out-of-memory recovery: free the cache, retry with a smaller batch), a branch of an
/// `if` or `?:` whose condition is not a compile-time constant, a switch case, or the right operand
/// of `&&` / `||`, between S and the innermost loop around it (or its function's body).
bool conditionalInLoop(const Stmt *S, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Child = S;
  for (const Stmt *P = HC.parentOf(S); P && !isLoopStatement(P); Child = P, P = HC.parentOf(P)) {
    if (isa<CXXCatchStmt, SwitchCase, LambdaExpr>(P))
      return !isa<LambdaExpr>(P);
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Child != If->getCond() && !If->isConstexpr() && !If->getCond()->isValueDependent() &&
          !If->getCond()->isIntegerConstantExpr(Ctx))
        return true;
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (Child != CO->getCond() && !CO->getCond()->isValueDependent() && !CO->getCond()->isIntegerConstantExpr(Ctx))
        return true;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        return true;
    }
  }
  return false;
}
} // namespace

void EmptyCacheInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  SourceLocation Loc = Call->getExprLoc();
  if (!inUserCode(Loc, *Result.SourceManager))
    return;
  auto Hot = hotContext(Call, Ctx);
  if (!Hot)
    return; // once, after set-up or between phases
  // A flush that only runs on some steps is a deliberate policy: every N steps (a logging-style
  // branch), when memory runs low (any run-time condition), or to recover from an out-of-memory
  // error (a catch handler). Quiet.
  if (rarePathReason(Call, Ctx) || conditionalInLoop(Call, Ctx))
    return;
  report(Loc,
         "emptyCache() on every step hands the caching allocator's free blocks back to the driver "
         "(cudaFree, which waits for the device to finish all queued work) and the next step "
         "allocates the same memory again through cudaMalloc; remove it (memory the allocator "
         "caches is reused, not leaked), or flush once per epoch or when an allocation fails",
         Hot);
}

} // namespace torchlint

#include "rules/DdpNoSyncCheck.h"
#include "analysis/Collectives.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  return nullptr;
}

/// Asks the call graph whether functions do something, transitively (memoized per query kind).
class Reach {
public:
  Reach(ASTContext &Ctx, llvm::function_ref<bool(const CallExpr *)> Direct) : Ctx(Ctx), Direct(Direct) {}

  /// True when FD's body, or a user function it calls, contains a call Direct accepts.
  bool function(const FunctionDecl *FD, unsigned Depth = 0) {
    if (!FD || Depth > 8)
      return false;
    FD = FD->getCanonicalDecl();
    auto It = Memo.find(FD);
    if (It != Memo.end())
      return It->second;
    Memo[FD] = false; // recursion guard
    bool R = false;
    const FunctionDecl *Def = nullptr;
    if (FD->hasBody(Def) && !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      R = stmt(Def->getBody());
    if (!R)
      for (const FunctionDecl *Callee : HotCodeAnalysis::get(Ctx).callees(FD))
        if (function(Callee, Depth + 1)) {
          R = true;
          break;
        }
    Memo[FD] = R;
    return R;
  }

  /// True when S contains a call Direct accepts (not looking into callees).
  bool stmt(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (Direct(C))
        return true;
    for (const Stmt *Child : S->children())
      if (stmt(Child))
        return true;
    return false;
  }

private:
  ASTContext &Ctx;
  llvm::function_ref<bool(const CallExpr *)> Direct;
  llvm::DenseMap<const FunctionDecl *, bool> Memo;
};

/// Finds, in a loop body, the statements that run on every iteration: it does not enter the
/// branches of an if/switch/?:, the right side of && and ||, or lambda bodies. Nested loops are
/// entered (their body runs on every outer iteration as long as the inner loop runs).
template <typename F> void forEachUnconditional(const Stmt *S, F &&Visit) {
  if (!S)
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    forEachUnconditional(If->getInit(), Visit);
    forEachUnconditional(If->getConditionVariableDeclStmt(), Visit);
    forEachUnconditional(If->getCond(), Visit);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    forEachUnconditional(Sw->getCond(), Visit);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
    forEachUnconditional(CO->getCond(), Visit);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isLogicalOp()) {
      forEachUnconditional(BO->getLHS(), Visit);
      return;
    }
  }
  if (isa<LambdaExpr>(S))
    return;
  Visit(S);
  for (const Stmt *C : S->children())
    forEachUnconditional(C, Visit);
}

/// The first `if` in the loop body (not inside nested loops or lambdas) whose condition is an
/// accumulation test and whose then-branch steps an optimizer.
const IfStmt *findAccumulationStep(const Stmt *S, ASTContext &Ctx, Reach &Steps, const BinaryOperator *&Rem) {
  if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (const BinaryOperator *R = accumulationTest(If->getCond(), Ctx)) {
      bool StepsThere = Steps.stmt(If->getThen());
      if (!StepsThere) {
        // optimizer.step() through a helper.
        forEachUnconditional(If->getThen(), [&](const Stmt *X) {
          if (const auto *C = dyn_cast<CallExpr>(X))
            if (!StepsThere && C->getDirectCallee() && Steps.function(C->getDirectCallee()))
              StepsThere = true;
        });
      }
      if (StepsThere) {
        Rem = R;
        return If;
      }
    }
  }
  for (const Stmt *C : S->children())
    if (const IfStmt *If = findAccumulationStep(C, Ctx, Steps, Rem))
      return If;
  return nullptr;
}

} // namespace

void DdpNoSyncCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(stmt(anyOf(forStmt(), whileStmt(), doStmt(), cxxForRangeStmt())).bind("loop"), this);
}

void DdpNoSyncCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (!inUserCode(Loop->getBeginLoc(), SM) || Loop->getBeginLoc().isMacroID())
    return;
  const Stmt *Body = loopBody(Loop);
  if (!Body)
    return;

  auto IsStep = [](const CallExpr *C) { return isOptimizerStep(C); };
  Reach Steps(Ctx, IsStep);
  const BinaryOperator *Rem = nullptr;
  const IfStmt *StepIf = findAccumulationStep(Body, Ctx, Steps, Rem);
  if (!StepIf)
    return;

  auto IsGradAllReduce = [&Ctx](const CallExpr *C) {
    const Expr *T = allReduceTensors(C);
    return T && isGradientExpr(T, Ctx);
  };
  Reach AllReduces(Ctx, IsGradAllReduce);

  // "3 of every 4" when N is a constant, else "N-1 of every N (N = accum_steps)".
  std::string Wasted;
  Expr::EvalResult N;
  if (Rem->getRHS()->EvaluateAsInt(N, Ctx) && N.Val.getInt().getSExtValue() >= 2) {
    int64_t V = N.Val.getInt().getSExtValue();
    Wasted = std::to_string(V - 1) + " of every " + std::to_string(V) + " all-reduces are wasted";
  } else {
    Wasted =
        "N-1 of every N all-reduces are wasted (N = " + sourceText(Rem->getRHS()->IgnoreParenImpCasts(), Ctx) + ")";
  }
  std::string Where = "the optimizer steps only when `" + sourceText(StepIf->getCond(), Ctx) + "` (line " +
                      std::to_string(SM.getPresumedLineNumber(SM.getExpansionLoc(StepIf->getBeginLoc()))) + ")";
  std::string Fix = "move the all-reduce into that if, just before the optimizer step, and let gradients "
                    "accumulate locally in between (what DistributedDataParallel's no_sync() does)";

  llvm::SmallPtrSet<const Stmt *, 4> Done;
  forEachUnconditional(Body, [&](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    if (!C || Done.count(C) || !inUserCode(C->getExprLoc(), SM))
      return;
    if (IsGradAllReduce(C)) {
      Done.insert(C);
      report(C->getExprLoc(),
             "this gradient all-reduce runs on every iteration, but " + Where + ": " + Wasted + "; " + Fix);
      return;
    }
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee || SM.isInSystemHeader(Callee->getLocation()) || !AllReduces.function(Callee))
      return;
    Done.insert(C);
    report(C->getExprLoc(), HotCodeAnalysis::get(Ctx).describe(Callee) +
                                " all-reduces the gradients and runs on every iteration, but " + Where + ": " + Wasted +
                                "; " + Fix);
  });
}

} // namespace torchlint

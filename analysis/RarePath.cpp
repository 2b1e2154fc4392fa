#include "analysis/RarePath.h"
#include "analysis/HotCode.h"
#include "utils/SourceText.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchlint {

namespace {

/// `a % N == 0` (either side), possibly as one operand of `&&`.
const Expr *moduloTest(const Expr *Cond) {
  if (!Cond)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const Expr *L = moduloTest(BO->getLHS()))
      return L;
    return moduloTest(BO->getRHS());
  }
  if (BO->getOpcode() != BO_EQ)
    return nullptr;
  auto IsRem = [](const Expr *E) {
    const auto *R = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    return R && R->getOpcode() == BO_Rem;
  };
  auto IsConst = [](const Expr *E) { return isa<IntegerLiteral>(E->IgnoreParenImpCasts()); };
  if ((IsRem(BO->getLHS()) && IsConst(BO->getRHS())) || (IsRem(BO->getRHS()) && IsConst(BO->getLHS())))
    return BO;
  return nullptr;
}

} // namespace

bool insideAssert(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = S->getBeginLoc();
  while (Loc.isMacroID()) {
    llvm::StringRef Name = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (Name == "assert")
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

static std::optional<std::string> rarePathReason(const Stmt *S, ASTContext &Ctx, unsigned Depth,
                                                 bool ThroughCalls = true);

/// S is in a function's body outside any loop of it: rare when every hot call of the function in
/// the TU is (a helper called only from a logging branch, `if (step % 500 == 0) sample(model);`,
/// and perhaps once per epoch).
static std::optional<std::string> rareThroughCalls(const Stmt *S, ASTContext &Ctx, unsigned Depth) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const FunctionDecl *FD = HC.enclosingFunction(S);
  if (!FD || Depth >= 3 || HC.referencedOtherThanCalled(FD))
    return std::nullopt;
  std::vector<const Expr *> Calls = HC.callsOf(FD);
  if (Calls.empty())
    return std::nullopt;
  std::optional<std::string> First;
  for (const Expr *Call : Calls) {
    if (!HC.whyHot(Call))
      continue; // a call in set-up or once per epoch makes nothing hot
    std::optional<std::string> R = rarePathReason(Call, Ctx, Depth + 1);
    if (!R)
      return std::nullopt;
    if (!First)
      First = R;
  }
  if (!First)
    return std::nullopt;
  std::string Reason = *First;
  if (llvm::StringRef(Reason).starts_with("it "))
    Reason = Reason.substr(3);
  return "every call of " + HC.describe(FD) + " " + Reason;
}

std::optional<std::string> rarePathReason(const Stmt *S, ASTContext &Ctx) { return rarePathReason(S, Ctx, 0); }

std::optional<std::string> localRarePathReason(const Stmt *S, ASTContext &Ctx) {
  return rarePathReason(S, Ctx, 0, /*ThroughCalls=*/false);
}

static std::optional<std::string> rarePathReason(const Stmt *S, ASTContext &Ctx, unsigned Depth, bool ThroughCalls) {
  if (insideAssert(S, Ctx))
    return std::string("it is inside assert(), which NDEBUG (release) builds compile out");
  const SourceManager &SM = Ctx.getSourceManager();
  // The hot-code analysis' parent map of user code (a function body's parent is null; a
  // variable's initializer has its DeclStmt as parent).
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = S;
  while (true) {
    const Stmt *P = HC.parentOf(Prev);
    if (!P)
      return ThroughCalls ? rareThroughCalls(S, Ctx, Depth) : std::nullopt;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      if (BO->getOpcode() == BO_LAnd && Prev == BO->getRHS())
        if (const Expr *Test = moduloTest(BO->getLHS())) {
          std::string Text = sourceText(Test, Ctx);
          return "it only runs when `" + Text + "` (short-circuit `&&`)";
        }
    if (isLoopStatement(P) || isa<LambdaExpr>(P))
      return std::nullopt;
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (Prev == If->getThen())
        if (const Expr *Test = moduloTest(If->getCond())) {
          std::string Text = sourceText(Test, Ctx);
          unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(If->getBeginLoc()));
          return "it only runs in the logging branch `if (" + Text + ")` at line " + std::to_string(Line);
        }
    }
    Prev = P;
  }
}

} // namespace torchlint

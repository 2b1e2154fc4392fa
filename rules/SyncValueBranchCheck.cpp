#include "rules/SyncValueBranchCheck.h"
#include "analysis/RarePath.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// The statement whose condition E is part of ("if", "while", "for", "do-while", "?:"), walking up
/// through the expression; empty when E is not (part of) a condition.
std::string conditionOf(const Expr *E, ASTContext &Ctx) {
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const Stmt *Prev = E;
  while (true) {
    const Stmt *P = HC.parentOf(Prev);
    if (!P)
      return {};
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      // `if (bool b = t.item<bool>())`: the condition variable.
      if (const auto *If = dyn_cast_or_null<IfStmt>(HC.parentOf(DS)))
        if (If->getConditionVariableDeclStmt() == DS)
          return "if";
      return {};
    }
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getCond() == Prev ? "if" : "";
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getCond() == Prev ? "while" : "";
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getCond() == Prev ? "for" : "";
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getCond() == Prev ? "do-while" : "";
    if (const auto *C = dyn_cast<ConditionalOperator>(P))
      return C->getCond() == Prev ? "?:" : "";
    if (!isa<Expr>(P))
      return {};
    Prev = P;
  }
}

/// "assert()", "TORCH_CHECK()" when Loc is in the argument of such a macro.
std::string assertionMacro(SourceLocation Loc, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  while (Loc.isMacroID()) {
    llvm::StringRef Name = Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts());
    if (Name == "assert" || Name.starts_with("TORCH_CHECK") || Name.starts_with("AT_ASSERT") ||
        Name.starts_with("TORCH_INTERNAL_ASSERT"))
      return (Name + "()").str();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return {};
}

} // namespace

void SyncValueBranchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("is_nonzero", "equal", "allclose"), isInTorchHeaders()))).bind("call"),
      this);
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("item"), isTensorMethod()))).bind("item"), this);
}

void SyncValueBranchCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Item = Result.Nodes.getNodeAs<CXXMemberCallExpr>("item")) {
    // item() is a sync wherever it is; torch-sync-item reports it when it runs.
    if (isCheckEnabled("torch-sync-item"))
      return;
    std::string Macro = assertionMacro(Item->getExprLoc(), Ctx);
    std::string Cond = conditionOf(Item, Ctx);
    if (Macro.empty() && Cond.empty())
      return;
    auto Site = assess(Item, Item->getImplicitObjectArgument(), Ctx);
    if (!Site)
      return;
    std::string Where = !Macro.empty() ? "an assertion (" + Macro + ")" : "the condition of " + Cond;
    reportSync(Item->getExprLoc(),
               "control flow on a tensor value: item() in " + Where +
                   " copies the value to the host and blocks until the GPU has caught up; keep the decision "
                   "on the device (torch::where(cond, a, b), multiplying by a mask) or check it once per "
                   "logging interval",
               *Site);
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const FunctionDecl *FD = Call->getDirectCallee();
  // Only the bool-returning overloads: a tensor-returning torch::equal does not exist, but be sure.
  if (!FD->getReturnType()->isBooleanType())
    return;
  const Expr *Tensor = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Tensor = MC->getImplicitObjectArgument();
  else if (Call->getNumArgs() >= 1)
    Tensor = Call->getArg(0);
  auto Site = assess(Call, Tensor, Ctx);
  if (!Site)
    return;
  reportSync(Call->getExprLoc(),
             FD->getNameAsString() +
                 "() returns a host bool computed from tensor values, so the CPU waits for the GPU to finish "
                 "all queued work; keep the result on the device ((a == b).all(), torch::isclose(a, b).all() "
                 "used with torch::where) or check it once per logging interval",
             *Site);
}

} // namespace torchlint

#include "rules/MultipleBackwardCheck.h"
#include "analysis/Autograd.h"
#include "analysis/NnModules.h"
#include "utils/SourceText.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

namespace {

/// The backward() call that statement S is (`loss.backward(...);`), or null.
const CXXMemberCallExpr *backwardStatement(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit());
  if (!MC)
    return nullptr;
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || !MD->getDeclName().isIdentifier() || MD->getName() != "backward" ||
      !isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)))
    return nullptr;
  return MC;
}

/// 1 true, 0 false, -1 not a constant; 0 for an argument left to its default.
int boolArg(const CXXMemberCallExpr *C, unsigned I, ASTContext &Ctx) {
  if (C->getNumArgs() <= I || isa<CXXDefaultArgExpr>(C->getArg(I)))
    return 0;
  const Expr *A = C->getArg(I)->IgnoreImplicit();
  if (A->isValueDependent() || A->isTypeDependent())
    return -1;
  // c10::optional<bool>: c10::nullopt is "not set" (= create_graph, which is checked too).
  if (isa<DeclRefExpr>(A) && cast<DeclRefExpr>(A)->getDecl()->getName() == "nullopt")
    return 0;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(A)) {
    if (CE->getNumArgs() == 0)
      return 0;
    if (CE->getNumArgs() == 1)
      A = CE->getArg(0)->IgnoreImplicit();
  }
  if (A->getType()->isRecordType())
    return -1;
  bool B;
  if (A->EvaluateAsBooleanCondition(B, Ctx))
    return B ? 1 : 0;
  return -1;
}

/// The graph is kept after C: retain_graph (argument 1) or create_graph (argument 2) true or not
/// provably false.
bool keepsGraph(const CXXMemberCallExpr *C, ASTContext &Ctx) {
  return boolArg(C, 1, Ctx) != 0 || boolArg(C, 2, Ctx) != 0;
}

/// True when S is (or contains) an optimizer step() call: the end of one training step.
bool stepsOptimizer(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
        MD && MD->getDeclName().isIdentifier() && MD->getName() == "step" && isOptimizerClass(MD->getParent()))
      return true;
  for (const Stmt *Ch : S->children())
    if (stepsOptimizer(Ch))
      return true;
  return false;
}

} // namespace

void MultipleBackwardCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(compoundStmt().bind("block"), this);
}

void MultipleBackwardCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block");
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  if (!inUserCode(Block->getLBracLoc(), SM))
    return;
  // The backward() statements of the block, in order; a step() ends a group.
  std::vector<const CXXMemberCallExpr *> Group;
  auto Flush = [&]() {
    if (Group.size() < 2) {
      Group.clear();
      return;
    }
    // The earlier calls keep the graph: the terms share nodes (else they would not need it), and
    // each later call runs the shared part again.
    const CXXMemberCallExpr *Retaining = nullptr;
    for (size_t I = 0; I + 1 < Group.size(); ++I)
      if (keepsGraph(Group[I], Ctx)) {
        Retaining = Group[I];
        break;
      }
    if (!Retaining) {
      Group.clear();
      return;
    }
    const CXXMemberCallExpr *Last = Group.back();
    auto Hot = hotContext(Last, Ctx);
    if (!Hot || gradDisabledAt(Last, Ctx)) {
      Group.clear();
      return;
    }
    std::string Terms;
    for (const CXXMemberCallExpr *C : Group) {
      std::string T = sourceText(C->getImplicitObjectArgument(), Ctx);
      if (T.empty()) {
        Terms.clear();
        break;
      }
      Terms += (Terms.empty() ? "" : " + ") + T;
    }
    std::string Msg = std::to_string(Group.size()) +
                      " backward() calls in one step, the earlier with retain_graph: the loss terms share a "
                      "graph, so each call runs the shared part of the backward pass again and the retained graph "
                      "keeps its saved activations until the last call; call backward() once on the sum" +
                      (Terms.empty() ? std::string() : " ('(" + Terms + ").backward()')") +
                      ", which runs every node once and needs no retain_graph (same gradients up to summation order)";
    report(Last->getExprLoc(), Msg, Hot);
    Group.clear();
  };
  for (const Stmt *S : Block->body()) {
    if (const CXXMemberCallExpr *B = backwardStatement(S)) {
      Group.push_back(B);
      continue;
    }
    if (stepsOptimizer(S))
      Flush();
  }
  Flush();
}

} // namespace torchlint

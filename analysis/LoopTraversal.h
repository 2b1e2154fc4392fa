// LoopTraversal: the loop statements of a RecursiveASTVisitor, written once. A visitor that
// tracks the loops around what it visits (analysis/HotCode's call collector, model/TUSummary's
// summary builder) derives from LoopTraversal<Derived> and defines
//
//   template <typename BodyFn> bool withLoop(const clang::Stmt *Loop, BodyFn Body);
//
// which records the loop, runs Body() (the parts of the loop that run on every iteration) and
// pops it. What runs once (a for's init, a range-for's range expression) is traversed outside
// withLoop; `do { ... } while (0)`, the statement wrapper of macros, is not a loop
// (isLoopStatement). A derived class may define beforeRangeFor(S) to look at a range-for first.
#pragma once

#include "analysis/HotCode.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace torchlint {

template <typename Derived> class LoopTraversal : public clang::RecursiveASTVisitor<Derived> {
  Derived &self() { return *static_cast<Derived *>(this); }

public:
  using DataRecursionQueue = typename clang::RecursiveASTVisitor<Derived>::DataRecursionQueue;

  bool TraverseForStmt(clang::ForStmt *S, DataRecursionQueue * = nullptr) {
    if (!self().TraverseStmt(S->getInit()))
      return false;
    return self().withLoop(S, [&] {
      return self().TraverseStmt(S->getCond()) && self().TraverseStmt(S->getInc()) &&
             self().TraverseStmt(S->getBody());
    });
  }
  bool TraverseWhileStmt(clang::WhileStmt *S, DataRecursionQueue * = nullptr) {
    return self().withLoop(S, [&] { return self().TraverseStmt(S->getCond()) && self().TraverseStmt(S->getBody()); });
  }
  bool TraverseDoStmt(clang::DoStmt *S, DataRecursionQueue * = nullptr) {
    if (!isLoopStatement(S))
      return self().TraverseStmt(S->getBody()) && self().TraverseStmt(S->getCond());
    return self().withLoop(S, [&] { return self().TraverseStmt(S->getBody()) && self().TraverseStmt(S->getCond()); });
  }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt *S, DataRecursionQueue * = nullptr) {
    self().beforeRangeFor(S);
    if (S->getInit() && !self().TraverseStmt(S->getInit()))
      return false;
    if (!self().TraverseStmt(S->getRangeInit()))
      return false;
    return self().withLoop(
        S, [&] { return self().TraverseStmt(S->getLoopVarStmt()) && self().TraverseStmt(S->getBody()); });
  }

  /// Called with each range-for before it is traversed; nothing by default.
  void beforeRangeFor(const clang::CXXForRangeStmt *) {}
};

} // namespace torchlint

// Small walks over a statement's AST for the shared analyses and the checks.
#pragma once
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace torchlint {

/// Calls Fn(const CallExpr *) for every call in S (S itself included; S may be null), a call
/// before the calls inside it. Lambda bodies count as part of S.
template <class F> void forEachCall(const clang::Stmt *S, F &&Fn) {
  if (!S)
    return;
  if (const auto *C = llvm::dyn_cast<clang::CallExpr>(S))
    Fn(C);
  for (const clang::Stmt *Ch : S->children())
    forEachCall(Ch, Fn);
}

} // namespace torchlint

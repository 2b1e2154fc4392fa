// Small walks over a statement's AST for the shared analyses and the checks.
#pragma once
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include <vector>

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

/// The references to variable D in S (S itself included; S may be null), in source order: every
/// use a check that follows a local must classify.
inline void collectReferences(const clang::Stmt *S, const clang::ValueDecl *D,
                              std::vector<const clang::DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *R = llvm::dyn_cast<clang::DeclRefExpr>(S); R && R->getDecl() == D)
    Out.push_back(R);
  for (const clang::Stmt *Ch : S->children())
    collectReferences(Ch, D, Out);
}

inline std::vector<const clang::DeclRefExpr *> referencesTo(const clang::Stmt *S, const clang::ValueDecl *D) {
  std::vector<const clang::DeclRefExpr *> Out;
  collectReferences(S, D, Out);
  return Out;
}

/// The return statements of a function body S, not those of the lambdas or local classes in it.
inline void collectReturns(const clang::Stmt *S, llvm::SmallVectorImpl<const clang::ReturnStmt *> &Out) {
  if (!S || llvm::isa<clang::LambdaExpr>(S))
    return;
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
    for (const clang::Decl *D : DS->decls())
      if (llvm::isa<clang::CXXRecordDecl>(D))
        return;
  if (const auto *R = llvm::dyn_cast<clang::ReturnStmt>(S))
    Out.push_back(R);
  for (const clang::Stmt *C : S->children())
    collectReturns(C, Out);
}
inline llvm::SmallVector<const clang::ReturnStmt *, 4> returnsOf(const clang::Stmt *Body) {
  llvm::SmallVector<const clang::ReturnStmt *, 4> Out;
  collectReturns(Body, Out);
  return Out;
}

/// True when S (S itself included; S may be null) names D: a reference to the variable or function
/// D, or for a field a member access to it. Skip(const Stmt *) returning true leaves a subtree out
/// (AutogradHistory: what sits inside a `.detach()`).
template <class F> bool refersTo(const clang::Stmt *S, const clang::ValueDecl *D, F &&Skip) {
  if (!S || Skip(S))
    return false;
  if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(S); DRE && DRE->getDecl() == D)
    return true;
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(S); ME && ME->getMemberDecl() == D)
    return true;
  for (const clang::Stmt *C : S->children())
    if (refersTo(C, D, Skip))
      return true;
  return false;
}
inline bool refersTo(const clang::Stmt *S, const clang::ValueDecl *D) {
  return refersTo(S, D, [](const clang::Stmt *) { return false; });
}

/// True when S (or a statement inside it) declares a variable or other entity named Name
/// (`torch::NoGradGuard no_grad;` declares "no_grad"): the guard a fix-it would insert is there.
inline bool declaresName(const clang::Stmt *S, llvm::StringRef Name) {
  if (!S)
    return false;
  if (const auto *DS = llvm::dyn_cast<clang::DeclStmt>(S))
    for (const clang::Decl *D : DS->decls())
      if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(D);
          ND && ND->getDeclName().isIdentifier() && ND->getName() == Name)
        return true;
  for (const clang::Stmt *C : S->children())
    if (declaresName(C, Name))
      return true;
  return false;
}

/// A function template (or a member of a class template) that is never instantiated in the TU:
/// its code is only in the template itself, where what depends on the template parameter has no
/// type yet. Checks that look at dependent code do so only here, so that an instantiated template
/// is reported once, from its instantiation.
inline bool isUninstantiatedTemplate(const clang::FunctionDecl *F) {
  if (!F)
    return false;
  if (const clang::FunctionTemplateDecl *T = F->getDescribedFunctionTemplate())
    return T->specializations().empty();
  if (const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F))
    if (const auto *CT = M->getParent()->getDescribedClassTemplate())
      return CT->specializations().empty();
  return false;
}

} // namespace torchlint

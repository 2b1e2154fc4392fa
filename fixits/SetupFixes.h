// Edit builders for the training-setup checks: appending a setter to an options expression
// (`.workers(4)`, `.bias(false)`), wrapping constructor arguments, editing or adding a call
// argument, and inserting a statement at the start of a function body. Each returns false (and
// adds no edit) when the text cannot be edited safely (macros, invalid ranges).
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include <vector>

namespace torchlint {

/// `E` -> `E.Call` (or `(E).Call` when E is not a postfix expression). Call is e.g. "workers(4)".
bool appendMemberCall(const clang::Expr *E, llvm::StringRef Call, const clang::ASTContext &Ctx,
                      std::vector<clang::FixItHint> &Out);

/// `f(a, b, c)` -> `f(Prefix a, b, c Suffix)`: wraps the written arguments of a call or
/// construction (e.g. into `torch::nn::Conv2dOptions(a, b, c).bias(false)`).
bool wrapArguments(llvm::ArrayRef<const clang::Expr *> Args, llvm::StringRef Prefix, llvm::StringRef Suffix,
                   const clang::ASTContext &Ctx, std::vector<clang::FixItHint> &Out);

/// Replaces the text of E with Text.
bool replaceExpr(const clang::Expr *E, llvm::StringRef Text, const clang::ASTContext &Ctx,
                 std::vector<clang::FixItHint> &Out);

/// Writes argument Idx of call C, currently defaulted, as Text: every argument before it must be
/// written and every one from it on defaulted (Idx 0: `f()` -> `f(Text)`).
bool insertDefaultedArgument(const clang::CallExpr *C, unsigned Idx, llvm::StringRef Text, const clang::ASTContext &Ctx,
                             std::vector<clang::FixItHint> &Out);

/// Inserts statement Stmt (with its `;`) on a new line at the start of FD's body, indented like
/// the body's first statement.
bool insertAtFunctionStart(const clang::FunctionDecl *FD, llvm::StringRef Stmt, const clang::ASTContext &Ctx,
                           std::vector<clang::FixItHint> &Out);

/// Inserts statement Stmt (with its `;`) on a line of its own just before S, indented like S:
/// only where S starts its line (nothing but blanks before it) outside a macro.
bool insertBeforeStatement(const clang::Stmt *S, llvm::StringRef Stmt, const clang::ASTContext &Ctx,
                           std::vector<clang::FixItHint> &Out);

} // namespace torchlint

// Code inside hot code that still does not run on every step: a logging branch
// (`if (step % N == 0)`, also inside `&&`) or the argument of assert() (compiled out under
// NDEBUG). The sync checks say nothing of code that runs once per logging interval (what their
// advice asks for) and report the rest (assert(), a loop below a logging branch reached through
// calls) at remark level with this reason. AT_ASSERT, TORCH_CHECK and TORCH_INTERNAL_ASSERT are
// not compiled out and do not count.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>
#include <vector>

namespace torchlint {

/// Why code only runs on some steps, and how often.
struct RarePath {
  /// "it only runs in the logging branch `if (step % 100 == 0)` at line 12", "it is inside
  /// assert(), which NDEBUG builds compile out".
  std::string Reason;
  /// A logging branch with no loop between it and the code, at every level of calls: the code
  /// runs at most once per logging interval. That is what the sync checks advise ("read it once
  /// per logging interval"), so they say nothing about it. False for assert() (a debug build runs
  /// it on every step).
  bool OncePerInterval = false;
};

/// Why S only runs on some steps, or nullopt. A branch on `i % N == 0` where i counts a loop of
/// at most N iterations from 0 around it (`for (int i = 0; i < 5; ++i) if (i % 5 == 0)`) is true
/// once per run of that loop: not a logging branch.
std::optional<RarePath> rarePath(const clang::Stmt *S, clang::ASTContext &Ctx);
/// rarePath's reason alone.
std::optional<std::string> rarePathReason(const clang::Stmt *S, clang::ASTContext &Ctx);

/// As rarePath, within S's own function only: a logging branch or assert() around S there,
/// not "every call of its function is rare" (across files, the project model decides that:
/// model/TUSummary records this for every call).
std::optional<RarePath> localRarePath(const clang::Stmt *S, clang::ASTContext &Ctx);

/// True when S never runs: it is in the branch of an `if` that the condition provably never
/// takes, because one operand of its `&&` chain (or the whole condition) is a compile-time false
/// or a local bool whose only value is a constant false (`bool verbose = false;` never assigned,
/// never passed by reference or address), or, for the else branch, the condition is provably
/// true that way. A debugging print behind such a flag is not code of the step.
bool neverRuns(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The pointer parameters of S's function that S needs non-null: S is in the then branch of
/// `if (p)`, `if (p != nullptr)` (or of an operand of its `&&` chain), or in the else branch of
/// `if (!p)`, `if (p == nullptr)` (or of an operand of its `||` chain), p a parameter of the
/// function that it never assigns and never lets escape. When every call in the project passes
/// null there (a crop box that only a viewer would set, defaulted to nullptr and passed as nullptr
/// by the trainer), S never runs: the project model drops the finding (HotContext::UnlessNullArgs,
/// model/ProjectModel.h nullAtEveryCall).
/// Also an optional parameter (std::optional, c10::optional): `if (batch)`, `if (batch.has_value())`
/// need it engaged, and a call passing `nullopt`, `{}` or leaving a `= torch::nullopt` default
/// passes its null (isEmptyOptional): a model's forward(graph, optional batch) whose batched branch
/// reads `batch->max().item()` never runs that branch when every call passes one graph alone.
std::vector<const clang::ParmVarDecl *> nonNullGuards(const clang::Stmt *S, clang::ASTContext &Ctx);

/// std::optional or c10::optional (through references and aliases such as torch::optional).
bool isOptionalType(clang::QualType T);

/// An argument that is an empty optional: `std::nullopt`, `c10::nullopt`, `torch::nullopt`, `{}`,
/// `std::optional<T>()`, as written or through optional's converting constructor.
bool isEmptyOptional(const clang::Expr *E);

/// True when S is inside the argument of the standard assert() macro.
bool insideAssert(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace torchlint

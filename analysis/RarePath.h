// Code inside hot code that still does not run on every step: a logging branch
// (`if (step % N == 0)`, also inside `&&`) or the argument of assert() (compiled out under
// NDEBUG). Checks report such code at remark level with this reason. AT_ASSERT, TORCH_CHECK and
// TORCH_INTERNAL_ASSERT are not compiled out and do not count.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>

namespace torchlint {

/// Why S only runs on some steps ("it only runs in the logging branch `if (step % 100 == 0)` at
/// line 12", "it is inside assert(), which NDEBUG builds compile out"), or nullopt.
std::optional<std::string> rarePathReason(const clang::Stmt *S, clang::ASTContext &Ctx);

/// As rarePathReason, within S's own function only: a logging branch or assert() around S there,
/// not "every call of its function is rare" (across files, the project model decides that:
/// model/TUSummary records this for every call).
std::optional<std::string> localRarePathReason(const clang::Stmt *S, clang::ASTContext &Ctx);

/// True when S is inside the argument of the standard assert() macro.
bool insideAssert(const clang::Stmt *S, clang::ASTContext &Ctx);

} // namespace torchlint

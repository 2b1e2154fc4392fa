// Values fixed at compile time, as the checks that ask "is this tensor a constant rebuilt on every
// call?" need them (rules/AllocInForwardCheck) and as the project model records them at calls
// (model/TUSummary.h Call::ConstArgs).
#pragma once
#include <vector>

namespace clang {
class ASTContext;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace torchlint {

/// A value fixed at compile time: literals, constexpr variables, enumerators, arithmetic on
/// them, braced lists of them, and the implicit conversions libtorch applies
/// (TensorDataContainer, Scalar, IntArrayRef). No calls, no runtime variables. With Ctx, also a
/// parameter of a number type that every call of its function in this TU passes such a value
/// (`Output(logits, 0.0f, 1.0f, 11)` whose constructor runs `torch::linspace(lo, hi, n, ...)`),
/// or leaves to a default that is one (`ssim(a, b)` declared with `int window_size = 11`).
/// With Deferred (whole-project mode), such a parameter, or one whose function has no call in
/// this TU (its callers are in other files), is added to *Deferred and counts as constant: the
/// project model checks every file's calls (model/ProjectModel.h constantAtEveryCall). A
/// parameter of a virtual method, one written in its function, or of a function whose address is
/// taken is never constant.
bool isConstantData(const clang::Stmt *S, clang::ASTContext *Ctx,
                    std::vector<const clang::ParmVarDecl *> *Deferred = nullptr);

} // namespace torchlint

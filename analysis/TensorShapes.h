// Compile-time shapes of tensors, proven from the AST or not at all (an analysis any check can
// ask; torch-tensor-core-dims uses it for matmul and Linear operands). A shape is proven when
// every dimension is a compile-time constant and every step from the factory that made the
// tensor is understood: sized factories (`torch::randn({64, 300})`), `*_like` factories, shape
// preserving methods (`.to()`, `.cuda()`, `.contiguous()`, ...), transposes, and locals made once
// and never assigned, resized or bound to a non-const reference. Anything else: nullopt.
#pragma once
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace torchlint {

using Shape = llvm::SmallVector<int64_t, 4>;

/// The proven shape of tensor expression E, or nullopt.
std::optional<Shape> provenShape(const clang::Expr *E, clang::ASTContext &Ctx);

/// An integer constant expression (literal, constexpr or const-initialized variable, arithmetic
/// on them), seen through c10::SymInt conversions; nullopt otherwise.
std::optional<int64_t> constInt(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace torchlint

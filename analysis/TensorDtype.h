// Boolean tensors from the AST: whether a tensor expression provably has dtype kBool. Decided
// from types and dataflow (comparison operators and methods, logical ops, isnan/isinf/isfinite,
// .to(kBool), kBool factories, and local variables all of whose values are such), never from a
// variable's name: an index tensor called `order_mask` that holds indices is not a mask.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace torchlint {

/// True when tensor expression E provably holds booleans.
bool isBoolTensor(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace torchlint

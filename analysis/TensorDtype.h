// Boolean tensors from the AST: whether a tensor expression provably has dtype kBool. Decided
// from types and dataflow (comparison operators and methods, logical ops, isnan/isinf/isfinite,
// .to(kBool), kBool factories, and local variables all of whose values are such), never from a
// variable's name: an index tensor called `order_mask` that holds indices is not a mask.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>

namespace torchlint {

/// True when tensor expression E provably holds booleans.
bool isBoolTensor(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace torchlint

namespace torchlint {

/// The c10::ScalarType a dtype expression denotes, by enumerator name ("Byte", "Float",
/// "Double"): torch::kByte, at::kFloat64, c10::ScalarType::Double, TensorOptions(kByte),
/// TensorOptions().dtype(kByte).device(d), torch::dtype(kByte). Empty when it is no constant or
/// carries no dtype; *NoDtype is set for TensorOptions that provably carry none (the default
/// dtype, float, applies).
std::string scalarTypeDenotedBy(const clang::Expr *E, clang::ASTContext &Ctx, bool *NoDtype = nullptr);

/// The dtype tensor expression E provably has, by enumerator name ("Byte", "Float", "Double"):
/// a factory or from_blob with a dtype (without one: "Float", for the factories whose default
/// dtype is the default float type), `.to(dtype)` / `.toType(dtype)`, methods that keep the
/// dtype (views, contiguous, .to(device), clone), and local variables all of whose values have
/// it. Empty when not provable.
std::string scalarTypeOf(const clang::Expr *E, clang::ASTContext &Ctx);

/// Bytes per element of a ScalarType named as above (1 for Byte, Char, Bool; 2 for Short, Half,
/// BFloat16; 4 for Int, Float; 8 for Long, Double), 0 when unknown.
unsigned scalarTypeSize(llvm::StringRef Name);

} // namespace torchlint

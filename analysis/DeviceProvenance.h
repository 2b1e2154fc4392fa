// Device provenance: where a tensor lives, as far as the TU proves it. Shared by every sync check
// (a sync on a tensor that is provably on the CPU costs nothing and is not reported).
//
// Provably CPU: made by a factory without a device option (torch::zeros({n}), torch::tensor(...),
// torch::from_blob), the result of .cpu() / .to(kCPU) / .to(Device("cpu")) / .to(dev) with a
// device variable that is provably kCPU, an op whose tensor operands are all provably CPU, or a
// local variable all of whose values (initializer and every assignment) are provably CPU and that
// never escapes (passed by non-const reference, address taken), a local std::vector<Tensor> all
// of whose elements are. Parameters, fields, globals and results of user functions are Unknown
// (deviceIfFieldsOnHost() tells what a field would make of it).
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace torchlint {

enum class DeviceKind {
  CPU,         ///< provably on the CPU
  Accelerator, ///< provably on a device (CUDA, MPS, XPU, ...)
  Unknown,     ///< cannot tell: treat as a device tensor
};

/// The device of tensor expression E.
DeviceKind deviceOf(const clang::Expr *E, clang::ASTContext &Ctx);

/// The device of E on the assumption that every tensor field it reads (and every field holding
/// tensors: `images_[i]`) holds host tensors only; the fields are added to Fields. CPU with
/// Fields non-empty: E is on the host if those fields are, which only the whole project can tell
/// (model/TUSummary.h records what each TU stores in its fields).
/// With Params, the same for the tensor parameters whose device this TU cannot tell (no call of
/// their function here): each is taken as host memory and added to Params, which the project
/// model confirms from the arguments at every call in the project (model/TUSummary.h records
/// them as the parameter's writes: paramKey).
DeviceKind deviceIfFieldsOnHost(const clang::Expr *E, clang::ASTContext &Ctx,
                                llvm::SmallVectorImpl<const clang::FieldDecl *> &Fields,
                                llvm::SmallVectorImpl<const clang::ParmVarDecl *> *Params = nullptr);
/// Whether the project model can confirm where PV lives from its call sites: a tensor parameter
/// taken by value or const reference, never reassigned, of a named function that is not virtual.
/// Without Body, the reassignment is not asked (a TU that only calls the function cannot see its
/// body; the TU that defines it asks).
bool deviceFollowsCallSites(const clang::ParmVarDecl *PV, clang::ASTContext &Ctx, bool Body = true);

/// The device of E, a value stored into Field (analysis/LocalDataflow.h fieldWritesOf): as
/// deviceOf, except that Field's own old value (`f = f.contiguous()`) adds nothing: nullopt
/// when E is made of nothing else.
std::optional<DeviceKind> deviceOfStored(const clang::Expr *E, const clang::FieldDecl *Field, clang::ASTContext &Ctx);

/// The device a Device / DeviceType / device string / TensorOptions expression denotes.
/// `NoDevice` is set (and Unknown returned) for TensorOptions that carry no device
/// (torch::TensorOptions().dtype(torch::kFloat), a ScalarType converted to options).
DeviceKind deviceDenotedBy(const clang::Expr *E, clang::ASTContext &Ctx, bool *NoDevice = nullptr);

} // namespace torchlint

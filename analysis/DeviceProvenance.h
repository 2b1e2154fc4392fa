// Device provenance: where a tensor lives, as far as the TU proves it. Shared by every sync check
// (a sync on a tensor that is provably on the CPU costs nothing and is not reported).
//
// Provably CPU: made by a factory without a device option (torch::zeros({n}), torch::tensor(...),
// torch::from_blob), the result of .cpu() / .to(kCPU) / .to(Device("cpu")) / .to(dev) with a
// device variable that is provably kCPU, an op whose tensor operands are all provably CPU, or a
// local variable all of whose values (initializer and every assignment) are provably CPU and that
// never escapes (passed by non-const reference, address taken), a local std::vector<Tensor> all
// of whose elements are. Parameters, fields, globals and results of user functions are Unknown
// (deviceIfHost() tells what they would make of it). A range-for variable that the loop never
// reassigns holds the elements of its range.
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

/// What a "host" answer rests on that only the whole project can confirm (model/TUSummary.h
/// records, per TU, what each of these yields; model/ProjectModel.cpp decides):
/// - Fields: tensor fields (and fields holding tensors: `images_[i]`) it reads, taken as host
///   memory: host if every write of each field in the project stores host tensors;
/// - Params (AcrossFiles only): tensor parameters, and parameters holding tensors, whose device
///   this TU cannot tell (no call of their function here): host if every call in the project
///   passes host tensors;
/// - Returns (AcrossFiles only): user functions declared here and defined in another file: host
///   if every return statement of theirs returns host tensors.
/// - Moved (AcrossFiles only): module classes whose registered buffers and parameters it reads
///   (`upper{register_buffer("upper", bound)}`): host if the registered value is and no module
///   that holds them is moved off the host (`module->to(device)` moves them in place): every
///   `to()` of the project on the class, a base of it, or a module that registers it.
struct HostAssumptions {
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
  llvm::SmallVector<const clang::ParmVarDecl *, 2> Params;
  llvm::SmallVector<const clang::FunctionDecl *, 2> Returns;
  llvm::SmallVector<const clang::CXXRecordDecl *, 1> Moved;
  bool AcrossFiles = false;
  bool empty() const { return Fields.empty() && Params.empty() && Returns.empty() && Moved.empty(); }
};

/// The device of E on the assumptions above, which are added to If. CPU with If non-empty: E is on
/// the host if they all hold.
DeviceKind deviceIfHost(const clang::Expr *E, clang::ASTContext &Ctx, HostAssumptions &If);
/// Whether the project model can confirm where PV lives from its call sites: a tensor parameter (or
/// a container of tensors) taken by value or const reference, never reassigned, of a named function or a constructor, not virtual.
/// Without Body, the reassignment is not asked (a TU that only calls the function cannot see its
/// body; the TU that defines it asks).
bool deviceFollowsCallSites(const clang::ParmVarDecl *PV, clang::ASTContext &Ctx, bool Body = true);

/// Whether the project model can tell what FD returns from its definition in another file: a user
/// function (not a lambda) that returns a tensor by value (model/TUSummary.h returnKey); for a
/// virtual method, the model joins the return values of every override.
bool returnFollowsDefinition(const clang::FunctionDecl *FD);

/// The device of E, a value stored into Field (analysis/LocalDataflow.h fieldWritesOf): as
/// deviceOf, except that Field's own old value (`f = f.contiguous()`) adds nothing: nullopt
/// when E is made of nothing else.
/// With If, as deviceIfHost (what a TU stores may rest on other fields, parameters and functions:
/// the project model resolves such chains and cycles).
std::optional<DeviceKind> deviceOfStored(const clang::Expr *E, const clang::FieldDecl *Field, clang::ASTContext &Ctx,
                                         HostAssumptions *If = nullptr);

/// The device a Device / DeviceType / device string / TensorOptions expression denotes.
/// `NoDevice` is set (and Unknown returned) for TensorOptions that carry no device
/// (torch::TensorOptions().dtype(torch::kFloat), a ScalarType converted to options).
DeviceKind deviceDenotedBy(const clang::Expr *E, clang::ASTContext &Ctx, bool *NoDevice = nullptr);

} // namespace torchlint

// Local dataflow for a variable: every value a local variable can hold inside its function (its
// initializer and each assignment), and whether it escapes (passed by non-const reference, address
// taken, swapped), after which nothing is provable about it. Shared by DeviceProvenance and
// TensorDtype. Decisions come from the AST, never from names.
#pragma once
#include "utils/ExprStrip.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <string>
#include <vector>

namespace torchlint {

struct VarValues {
  /// False for parameters, globals other files can name, static data members, fields,
  /// structured bindings, range-for variables and variables that escape: their values are not
  /// all visible here. A variable only this TU can name (`static` at namespace scope, in an
  /// anonymous namespace, a function's static) is known from its initialiser and the TU's writes.
  bool Known = false;
  /// The initializer (when there is one) and the right-hand side of every assignment.
  std::vector<const clang::Expr *> Values;
  /// True when the variable is default-constructed (no initializer value, e.g. `Tensor t;`).
  bool DefaultInit = false;
  /// True when a local variable or parameter is assigned or escapes after its initialization.
  bool Written = false;
  /// For a local that escapes (Known false): the use that made it escape (a call taking it by
  /// non-const reference, its address taken). Values assigned before it in the same pass through
  /// the variable's scope are still all it holds there; Values lists those seen before it.
  clang::SourceLocation EscapedAt;
};

/// The values variable VD can hold (cached per variable for the TU).
const VarValues &valuesOf(const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// The range of a range-for loop variable that the loop never reassigns and that never escapes
/// (`for (const auto &t : v)`, `for (auto t : v)`): each iteration holds one element of it (the
/// range as written, e.g. `v`, `images_`). Null for any other variable.
const clang::Expr *rangeOfLoopVariable(const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// The tensors put into a local container of tensors (std::vector<Tensor>): its braced
/// initializer, every push_back(x) / emplace_back(x) and `v[i] = x`; a whole container it is
/// assigned from (`v = std::move(w)`: the value is `w`, whose elements it holds). Known is false
/// when the container escapes (passed by non-const reference, a non-const range-for whose variable
/// the body reassigns or lets escape, assigned from anything else, insert()) or is not a local of
/// a container type.
const VarValues &elementsOf(const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// Every tensor field, field holding a container of tensors (or a map to tensors) and device field
/// (c10::Device, c10::DeviceType: TorchTypes.h isDeviceValueType) that the
/// user code of the TU (within the traversal scope) writes, with what it writes: assignments,
/// constructor initializers, in-class initializers, aggregate initialization, and for containers
/// the elements put in (`v.push_back(x)`, `m[k] = x`) or a whole container copied or moved in
/// (`boxes_(std::move(boxes))`: the value is `boxes`). Known is false for a field written in a way
/// not followed (by non-const reference, its address taken, a container assigned from anything
/// else).
const llvm::DenseMap<const clang::FieldDecl *, VarValues> &fieldWritesOf(clang::ASTContext &Ctx);

/// X in `V = X` (a built-in or an overloaded operator=, also under cleanups) where V is a
/// variable, with *To set to V; null for anything else.
const clang::Expr *assignedValue(const clang::Stmt *S, const clang::VarDecl **To = nullptr);

/// The right-hand side of `V = X;` (or V's initialiser) when that write is the only one of the
/// local V that reaches the use Use: a statement of a block around Use, before it, with no other
/// write of V written between the two, nor after Use inside a loop around Use that the assignment
/// is outside of (the loop's next iteration would bring it back). `t = t.cpu().to(torch::kDouble);` followed
/// by `t[i][j].item<double>()`: the use reads the host copy whatever t held before. Null otherwise.
const clang::Expr *onlyReachingAssignment(const clang::DeclRefExpr *Use, const clang::VarDecl *VD,
                                          clang::ASTContext &Ctx);

/// True when Value (VD's initialiser or the right-hand side of an assignment of it) is never read:
/// VD is a local that never escapes, and every read of it is reached only by another write
/// (onlyReachingAssignment). `auto device = torch::kCPU; if (cuda) device = torch::kCUDA;
/// device = torch::kCPU;` then uses of device: neither kCUDA nor the first kCPU is read.
bool writeNeverRead(const clang::Expr *Value, const clang::VarDecl *VD, clang::ASTContext &Ctx);

/// `torch::stack(v)`, `torch::cat(v)`, `torch::concat(v)` of a variable v (a vector of tensors,
/// through the TensorList made of it): the reference to v; null for anything else.
const clang::DeclRefExpr *collatedVector(const clang::Expr *E);

/// One write of a local container by `std::transform(src.begin(), src.end(),
/// std::back_inserter(v), [](auto &e) { return e.data; })` (the collation a torch::data loader
/// without Stack needs, as a forum answer writes it): the object of the begin() call (`src`) and
/// the member of each element the lambda returns ("data"; "" when it returns the element).
struct TransformWrite {
  const clang::Expr *Source = nullptr;
  std::string Member;
};

/// When every reference to the local container Parts in the function of Use, other than Use,
/// is such a write: them (in source order); empty otherwise (Parts written or read any other way,
/// or never so written).
std::vector<TransformWrite> transformWritesOf(const clang::VarDecl *Parts, const clang::Expr *Use,
                                              clang::ASTContext &Ctx);

} // namespace torchlint

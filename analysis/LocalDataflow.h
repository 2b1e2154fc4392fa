// Local dataflow for a variable: every value a local variable can hold inside its function (its
// initializer and each assignment), and whether it escapes (passed by non-const reference, address
// taken, swapped), after which nothing is provable about it. Shared by DeviceProvenance and
// TensorDtype. Decisions come from the AST, never from names.
#pragma once
#include "utils/ExprStrip.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace torchlint {

struct VarValues {
  /// False for parameters, globals, statics, fields, structured bindings, range-for variables
  /// and variables that escape: their values are not all visible here.
  bool Known = false;
  /// The initializer (when there is one) and the right-hand side of every assignment.
  std::vector<const clang::Expr *> Values;
  /// True when the variable is default-constructed (no initializer value, e.g. `Tensor t;`).
  bool DefaultInit = false;
  /// True when a local variable or parameter is assigned or escapes after its initialization.
  bool Written = false;
};

/// The values local variable VD can hold (cached per variable for the TU).
const VarValues &valuesOf(const clang::VarDecl *VD, clang::ASTContext &Ctx);

} // namespace torchlint

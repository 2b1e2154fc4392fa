// Which value reaches a libtorch options field (a TORCH_ARG such as ConvOptions::bias or
// DataLoaderOptions::workers): follows builder chains (`Conv2dOptions(3, 16, 3).stride(2)`),
// locals initialised once and not modified, helper functions that build and return options or
// modules (binding their parameters to the arguments of the call), register_module(), and
// submodule fields of a module class. The TORCH_ARG's own default is used when nothing sets it.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace torchlint {

struct OptionValue {
  enum Kind {
    Default, // nothing sets it: the TORCH_ARG default applies
    Set,     // set by `.name(x)` (directly or through helper parameters)
    Unknown  // cannot be followed (parameters of an unknown caller, modified variables, ...)
  } K = Unknown;
  /// The value when it is a compile-time constant (bools are 0/1).
  std::optional<int64_t> Constant;
  /// Where the value is written in the user's code, when it can be edited there without touching
  /// anything else: the `x` of `.name(x)` at the use site, or the argument of the outermost helper
  /// call that is bound (through parameters each used once) to it.
  const clang::Expr *Source = nullptr;
  /// When the value is the default argument of the outermost helper call: that call and the
  /// parameter's index.
  const clang::CallExpr *DefaultedCall = nullptr;
  unsigned DefaultedParam = 0;
  /// Number of helper calls followed to find the value.
  unsigned HelperDepth = 0;

  bool isConstant(int64_t V) const { return K != Unknown && Constant && *Constant == V; }
};

/// The value of option Name (e.g. "bias") in the options object that Options evaluates to.
/// Options must have the options class type (ConvOptions<2>, DataLoaderOptions, ...).
OptionValue resolveOption(const clang::Expr *Options, llvm::StringRef Name, clang::ASTContext &Ctx);

/// How a module object was constructed.
struct ModuleOrigin {
  /// The module class (Conv2dImpl), null when the construction could not be found.
  const clang::CXXRecordDecl *Impl = nullptr;
  /// The holder / module construction (`torch::nn::Conv2d(...)`).
  const clang::CXXConstructExpr *Construct = nullptr;
  /// Its options argument when it was built from an options object, null for the positional
  /// constructors (`Conv2d(in, out, kernel)`).
  const clang::Expr *OptionsArg = nullptr;
  /// Number of helper functions followed to reach the construction (0: written at the use site
  /// or in the initialisation of the variable or field used there).
  unsigned HelperDepth = 0;
  /// The value of the option asked for.
  OptionValue Option;
};

/// Follows the module expression M (a holder, a local, a submodule field, a helper call,
/// register_module(...)) back to its construction and resolves option Name there.
ModuleOrigin resolveModuleOption(const clang::Expr *M, llvm::StringRef Name, clang::ASTContext &Ctx);

/// The default of TORCH_ARG Name in options class RD (the in-class initializer of `Name_`).
std::optional<int64_t> optionDefault(const clang::CXXRecordDecl *RD, llvm::StringRef Name, clang::ASTContext &Ctx);

} // namespace torchlint

// Edit builders for TensorOptions: moving a device into a factory call.
#pragma once
#include "utils/SourceText.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Diagnostic.h"
#include <string>
#include <vector>

namespace torchlint {

/// For `t.to(X)` on the TensorOptions (or Device) overload: the expression X as the user wrote it
/// when it denotes a device (c10::Device, DeviceType, a string), else null (`.to(kFloat)`,
/// `.to(other_tensor)`, `.to(options)`).
const clang::Expr *deviceArgumentOfTo(const clang::CXXMemberCallExpr *Call);

/// Rewrites `factory(args).cuda()` / `factory(args).to(dev)` as `factory(args, <opts with
/// device>)`: adds `Ns::TensorOptions().device(Device)` when the options are defaulted, or
/// appends `.device(Device)` to the options the user passed, and deletes the move. Returns false
/// (and no edits) when the rewrite is not provably equivalent (macros, requires_grad in the
/// options, an options parameter that cannot be reached positionally).
bool buildDeviceIntoFactoryFix(const clang::CallExpr *Factory, const clang::CXXMemberCallExpr *Move,
                               llvm::StringRef Device, llvm::StringRef Ns, clang::ASTContext &Ctx,
                               std::vector<clang::FixItHint> &Out);

} // namespace torchlint

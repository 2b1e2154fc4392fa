// torch-host-convert-then-copy: a narrow tensor on the host (uint8 images, int8 or int16 data)
// converted to a wider dtype (`.to(torch::kFloat)`, often followed by `.div(255)`) and only then
// copied to the GPU: the copy carries the wide tensor, four times the bytes of a uint8 image over
// the bus, and the conversion and scaling run on the CPU, element by element, in the step. Copy the
// narrow tensor and convert on the device: `img.to(device).to(torch::kFloat).div(255)`. Where the
// chain is made only of value-preserving steps (dtype conversions, scalar arithmetic, views) the
// fix-it moves the `.to(device)` next to the narrow tensor: the same values, computed on the
// device. docs/checks/torch-host-convert-then-copy.md
#pragma once
#include "analysis/HostWidening.h"
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-host-convert-then-copy: `.to(device)` / `.cuda()` of a chain that widens the dtype of a
/// tensor provably on the host with a provably narrow dtype (written in the same expression, or in
/// a local variable all of whose values are such chains); in project mode, also of a tensor that
/// user functions and fields of other files yield, when the project model finds them all widened
/// on the host.
class HostConvertThenCopyCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// `.to(device, dtype)` of a narrow host tensor: the conversion runs on the host, in the copy.
  void checkConvertingCopy(const clang::CXXMemberCallExpr *Call, const clang::Expr *Dev, llvm::StringRef To,
                           clang::ASTContext &Ctx);
  /// In project mode, the copy of tensors that calls of user functions and reads of fields
  /// yield: reported if the project model finds every one of them widened on the host
  /// (HotContext::IfWidenedHost).
  void checkCopyFromElsewhere(const clang::CXXMemberCallExpr *Call, const clang::Expr *Obj, const clang::VarDecl *VD,
                              HotContext Hot, clang::ASTContext &Ctx);
  /// The copy of a torch::data loader batch's member (`batch.data.to(device)`) whose data set's
  /// get() returns it widened on the host (analysis/HostWidening.h loaderBatchOrigins): reported
  /// here when get() converts it itself; in project mode also when get() returns what user
  /// functions and fields yield (decided by the model, as checkCopyFromElsewhere). True when Obj
  /// is such a member (reported or not).
  bool checkLoaderBatch(const clang::CXXMemberCallExpr *Call, const clang::Expr *Obj, const HotContext &Hot,
                        clang::ASTContext &Ctx);
  /// The report of checkCopyFromElsewhere, once the origins are known.
  void reportFromElsewhere(const clang::CXXMemberCallExpr *Call, const std::vector<TensorOrigin> &Origins,
                           HotContext Hot);
};

} // namespace torchlint

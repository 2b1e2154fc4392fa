// The common base of the host-device sync checks (torch-sync-*): one place that decides whether a
// sync site is reported and at which level, by asking the shared analyses:
//   - hot code (HotCodeAnalysis): only code that runs on every step; the message says why;
//   - device provenance (DeviceProvenance): a tensor provably on the CPU is never reported;
//   - a CPU-only program: a TU that holds main(), never uses CUDA (TUFacts::usesCUDA) and gets no
//     device from another TU (TUFacts::opaqueDevice) has no host-device sync to report;
//   - rare paths (RarePath): a sync that runs once per logging interval (`if (step % N == 0)`,
//     no loop below it, at every level of calls) is what the advice asks for and is not reported;
//     one inside assert() is a remark, and the message says why.
#pragma once
#include "analysis/DeviceProvenance.h"
#include "checkbase/TorchCheck.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>
#include <string>

namespace torchlint {

struct SyncSite {
  HotContext Hot;
  /// Set when the site does not run on every step but is still reported (assert()).
  std::optional<std::string> Rare;
  DeviceKind Device = DeviceKind::Unknown;
};

class SyncCheck : public TorchCheck {
public:
  using TorchCheck::TorchCheck;

protected:
  /// Whether the sync at At (on tensor Tensor; null when no tensor is involved) is reported:
  /// nullopt in setup code, outside user code, for a tensor provably on the CPU, or once per
  /// logging interval.
  std::optional<SyncSite> assess(const clang::Stmt *At, const clang::Expr *Tensor, clang::ASTContext &Ctx);
  /// The TU is a whole program that never uses CUDA: main() is here, nothing names a CUDA device
  /// or calls CUDA-only API, and no device comes from a function defined in another TU.
  static bool cpuOnlyProgram(clang::ASTContext &Ctx);
  /// Emits the finding: a warning, or a remark with the rare-path reason.
  clang::DiagnosticBuilder reportSync(clang::SourceLocation Loc, llvm::StringRef Message, const SyncSite &Site);
};

} // namespace torchlint

// The rule catalog: generated from rules/checks.json (cmake/Catalog.cmake). Every consumer
// (--list-checks, --explain, SARIF rule metadata, the default check set, the docs index) reads it.
#pragma once
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace torchlint {

struct CheckInfo {
  llvm::StringRef Name;        // torch-sync-item
  llvm::StringRef ClassName;   // SyncItemCheck (rules/SyncItemCheck.{h,cpp})
  llvm::StringRef Level;       // "0", "1" or "manual"
  llvm::StringRef Category;    // host-device-sync, device-placement, ...
  llvm::StringRef Summary;     // one line
  llvm::StringRef Description; // the why, a paragraph
  llvm::StringRef Seed;        // which guide it comes from
  bool Fixable;
  /// The row's `"per_call": true`: what the check's findings cost is paid per call (an
  /// allocation, a kernel launch).
  bool PerCall;

  bool onByDefault() const { return Level != "manual"; }
  /// Code that runs only in a logging branch (`if (step % N == 0)`) pays a per-call cost once per
  /// interval, which is nothing to report (the sync checks report it as a remark instead: what
  /// they cost is a stall).
  bool costsPerCall() const { return PerCall; }
  /// docs/checks/<name>.md, relative to the repository root.
  std::string docPath() const { return "docs/checks/" + Name.str() + ".md"; }
};

llvm::ArrayRef<CheckInfo> catalog();
const CheckInfo *findCheck(llvm::StringRef Name);

/// The clang-tidy check glob of the default set: "-*,torch-a,torch-b,...". With MaxLevel 0 only
/// level-0 checks are on; with 1 (the default) levels 0 and 1.
std::string defaultChecksGlob(int MaxLevel = 1);

/// Where torchlint's own files (docs/, the bundled libtorch headers) live: the source tree it was
/// built from (compiled in), or $TORCHLINT_HOME.
std::string torchlintHome();

} // namespace torchlint

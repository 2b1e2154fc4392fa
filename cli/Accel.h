// The accelerated way the CLI runs clang-tidy on one translation unit. Same library, same checks,
// same ClangTidyContext and diagnostic consumer (so NOLINT, .clang-tidy, header filters and fixes
// behave as in clang-tidy), with two differences that do not change the findings:
//  - the AST matchers (and the shared analyses) only traverse the declarations the TU itself
//    parses outside system headers (ASTContext::setTraversalScope, as clangd does), instead of all
//    of libtorch's AST; every check only reports in user code;
//  - the leading block of system includes is loaded from a cached PCH (PchCache.h).
#pragma once
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace torchlint {

struct AccelOptions {
  /// Restrict the AST traversal to the user's top-level declarations.
  bool Scope = true;
  /// Where automatic PCHs live; empty: no PCH.
  std::string PchCacheDir;
  /// Also build the TU's project-model summary (TUAnalysis::Summary).
  bool Summary = false;
};

struct TUAnalysis {
  std::vector<clang::tidy::ClangTidyError> Errors;
  /// Every file the analysis read (the main file, its headers, the PCH's headers): absolute paths.
  std::vector<std::string> Deps;
  /// Where the headers that were missing (or served only by torchlint's stand-ins or synthesised
  /// declarations) would be found once installed: absolute paths that did not exist.
  std::vector<std::string> Absent;
  bool UsedPch = false, BuiltPch = false;
  std::string NoPchWhy;
  /// The TU's summary for the project model, as JSON (model/TUSummary.h), when asked for.
  std::string Summary;
};

/// clang::tidy::runClangTidy for one file, accelerated as described above. Use a fresh Context per
/// call: each call has its own DiagnosticIDs, and a context maps diagnostic IDs to check names.
TUAnalysis analyzeTU(clang::tidy::ClangTidyContext &Context, const clang::tooling::CompilationDatabase &DB,
                     const std::string &File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                     bool ApplyAnyFix, const AccelOptions &Opts);

} // namespace torchlint

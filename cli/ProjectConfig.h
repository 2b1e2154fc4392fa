// A project's .clang-tidy written for clang-tidy (issue 24): `Checks: '-*,bugprone-*'` (CLion's
// default style) would switch every torch check off, silently, because clang-tidy merges the
// default set with the file's globs and '-*' removes it. In the torchlint command a .clang-tidy
// that never names a torch check (no glob of it matches a check of the catalog) leaves torchlint's
// default set on: its Checks are not read (its CheckOptions and the rest still are). One that names
// torch checks is obeyed as written, and when it disables every torch check torchlint says so in
// one warning. The clang-tidy plugin does not do this: there clang-tidy's own semantics rule
// (docs/reliability.md).
#pragma once
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace torchlint {

/// True when a piece of Glob (after its '-') matches a check of the catalog and no other tool's:
/// "torch-*", "-torch-sync-item", "*-sync-*". False for "*", "-*", "bugprone-*", "".
bool namesTorchCheck(llvm::StringRef Glob);
/// The catalog checks Glob enables (clang-tidy's GlobList semantics).
std::vector<std::string> enabledTorchChecks(llvm::StringRef Glob);

/// Inner's options, with the Checks of configuration files that name no torch check dropped.
class TorchOptionsProvider : public clang::tidy::ClangTidyOptionsProvider {
public:
  explicit TorchOptionsProvider(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}
  const clang::tidy::ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override;

private:
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner;
};

/// One warning per configuration file that disables every torch check for one of Files (read
/// through Provider, a TorchOptionsProvider): "/src/.clang-tidy disables every torch check
/// (Checks: '-*,-torch-*'); torchlint reports nothing for the files it applies to". Nothing when
/// --checks was given (the command line decides).
std::vector<std::string> configsDisablingEveryTorchCheck(clang::tidy::ClangTidyOptionsProvider &Provider,
                                                         const std::vector<std::string> &Files);

} // namespace torchlint

#pragma once
#include "checkbase/TorchCheck.h"

namespace torchlint {

/// torch-loader-workers: make_data_loader without workers. docs/checks/torch-loader-workers.md
class LoaderWorkersCheck : public TorchCheck {
public:
  LoaderWorkersCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  const unsigned Workers;

public:
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  /// What a finding rests on beyond its expression: an absence: workers(N) nowhere on the way from the options
  /// (Recovery.h).
  Evidence evidence() const override { return Evidence::Expression; } // see check(): evidenceRestsOnErrors
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchlint

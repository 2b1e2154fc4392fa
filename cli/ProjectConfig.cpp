#include "cli/ProjectConfig.h"
#include "clang-tidy/GlobList.h"
#include "core/Catalog.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>

namespace torchlint {

using clang::tidy::ClangTidyOptionsProvider;

namespace {

/// A configuration file's options (not torchlint's defaults, --checks or --config).
bool isConfigFile(const std::string &Source) {
  return Source != ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary &&
         Source != ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption &&
         Source != ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption;
}

std::string oneLine(llvm::StringRef S) {
  std::string Out;
  bool Space = false;
  for (char C : S.trim()) {
    bool Blank = C == '\n' || C == '\r' || C == ' ' || C == '\t';
    if (Blank && Space)
      continue;
    Out += Blank ? ' ' : C;
    Space = Blank;
  }
  return Out;
}

} // namespace

bool namesTorchCheck(llvm::StringRef Glob) {
  std::string Flat = Glob.str(); // globs are separated by ',' or a newline, as in GlobList
  std::replace(Flat.begin(), Flat.end(), '\n', ',');
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Flat).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    P.consume_front("-");
    P = P.trim();
    if (P.empty())
      continue;
    // A glob that also matches other tools' checks ("*" of "-*") is about every check, not torch's.
    clang::tidy::GlobList One(P);
    if (One.contains("bugprone-use-after-move") || One.contains("readability-identifier-naming"))
      continue;
    for (const CheckInfo &C : catalog())
      if (One.contains(C.Name))
        return true;
  }
  return false;
}

std::vector<std::string> enabledTorchChecks(llvm::StringRef Glob) {
  clang::tidy::GlobList G(Glob);
  std::vector<std::string> Out;
  for (const CheckInfo &C : catalog())
    if (G.contains(C.Name))
      Out.push_back(C.Name.str());
  return Out;
}

std::vector<ClangTidyOptionsProvider::OptionsSource> TorchOptionsProvider::getRawOptions(llvm::StringRef FileName) {
  std::vector<OptionsSource> Raw = Inner->getRawOptions(FileName);
  bool Named = false;
  for (const OptionsSource &S : Raw)
    if (isConfigFile(S.second) && S.first.Checks && namesTorchCheck(*S.first.Checks))
      Named = true;
  if (!Named)
    for (OptionsSource &S : Raw)
      if (isConfigFile(S.second))
        S.first.Checks.reset();
  return Raw;
}

std::vector<std::string> configsDisablingEveryTorchCheck(ClangTidyOptionsProvider &Provider,
                                                         const std::vector<std::string> &Files) {
  std::vector<std::string> Out;
  std::set<std::string> Dirs, Said;
  for (const std::string &F : Files) {
    if (!Dirs.insert(llvm::sys::path::parent_path(F).str()).second)
      continue; // the same directory sees the same configuration
    std::vector<ClangTidyOptionsProvider::OptionsSource> Raw = Provider.getRawOptions(F);
    std::string Glob, Last, LastChecks;
    bool CommandLine = false;
    for (const auto &[Opts, Source] : Raw) {
      if (!Opts.Checks)
        continue;
      Glob += (Glob.empty() ? "" : ",") + *Opts.Checks;
      if (Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption)
        CommandLine = true;
      else if (isConfigFile(Source) && namesTorchCheck(*Opts.Checks)) {
        Last = Source;
        LastChecks = *Opts.Checks;
      }
    }
    if (CommandLine || Last.empty() || !enabledTorchChecks(Glob).empty() || !Said.insert(Last).second)
      continue;
    std::string Shown = oneLine(LastChecks);
    if (Shown.size() > 80)
      Shown = Shown.substr(0, 77) + "...";
    Out.push_back(Last + " disables every torch check (Checks: '" + Shown +
                  "'); torchlint reports nothing for the files it applies to");
  }
  return Out;
}

} // namespace torchlint

#include "fixits/VerifyFixes.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include <set>

namespace torchlint {

namespace {
/// Remembers the first error, silently.
class FirstError : public clang::DiagnosticConsumer {
public:
  std::string Text;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < clang::DiagnosticsEngine::Error || !Text.empty())
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      clang::PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Text = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn()) +
               ": ";
    }
    Text += Msg.str();
  }
};

/// True when TU compiles (syntax and semantics, no code generation) with its database flags.
bool compiles(const std::string &TU, const clang::tooling::CompilationDatabase &DB, std::string &Why) {
  clang::tooling::ClangTool Tool(DB, {TU});
  FirstError Diags;
  Tool.setDiagnosticConsumer(&Diags);
  Tool.setPrintErrorMessage(false);
  int RC = Tool.run(clang::tooling::newFrontendActionFactory<clang::SyntaxOnlyAction>().get());
  Why = Diags.Text.empty() ? "the compiler failed" : Diags.Text;
  return RC == 0 && Diags.getNumErrors() == 0;
}
} // namespace

VerifyReport verifyFixes(const FixReport &Fixes, const std::vector<std::string> &Inputs,
                         const clang::tooling::CompilationDatabase &DB) {
  VerifyReport Rep;
  std::set<std::string> InputSet(Inputs.begin(), Inputs.end());
  // TU -> the changed files it depends on.
  std::map<std::string, std::vector<const FixReport::Original *>> Affected;
  for (const FixReport::Original &O : Fixes.Originals) {
    if (InputSet.count(O.File)) {
      Affected[O.File].push_back(&O);
    } else {
      for (const std::string &TU : Inputs)
        Affected[TU].push_back(&O);
    }
  }
  std::set<std::string> RestoredFiles;
  for (auto &[TU, Files] : Affected) {
    bool AllRestored = true;
    for (const FixReport::Original *O : Files)
      AllRestored &= RestoredFiles.count(O->File) > 0;
    if (AllRestored)
      continue;
    std::string Why;
    ++Rep.Compiled;
    if (compiles(TU, DB, Why))
      continue;
    for (const FixReport::Original *O : Files) {
      if (!RestoredFiles.insert(O->File).second)
        continue;
      std::string Err;
      // Only over our own output: if someone edited the file meanwhile, leave it and say so.
      if (writeFileAtomically(O->File, O->Before, Err, O->AfterHash))
        Rep.Restored.push_back(O->File + ": fixes undone: " + TU + " no longer compiles after them (" + Why + ")");
      else
        Rep.Errors.push_back(O->File + ": " + TU +
                             " no longer compiles after the fixes, and the file could not be restored: " + Err);
    }
  }
  return Rep;
}

} // namespace torchlint

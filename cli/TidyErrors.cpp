#include "cli/TidyErrors.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace torchlint {

namespace {

std::string absolute(llvm::StringRef File, llvm::StringRef BuildDir) {
  if (File.empty())
    return std::string();
  llvm::SmallString<256> Abs(File);
  llvm::sys::fs::make_absolute(BuildDir, Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

} // namespace

void collectTidyErrors(const std::vector<tidy::ClangTidyError> &Errors, RunResult &R, bool AbsoluteNotesAndFixes,
                       LineColumnOf LineColumn) {
  auto Position = [&](const std::string &File, unsigned Offset, unsigned &Line, unsigned &Column) {
    if (LineColumn)
      LineColumn(File, Offset, Line, Column);
    else
      offsetToLineColumn(File, Offset, Line, Column);
  };
  for (const tidy::ClangTidyError &E : Errors) {
    Finding F;
    F.Check = E.DiagnosticName;
    switch (E.DiagLevel) {
    case tooling::Diagnostic::Error:
      F.Level = "error";
      break;
    case tooling::Diagnostic::Remark:
      F.Level = "remark";
      break;
    default:
      F.Level = "warning";
    }
    F.Message = E.Message.Message;
    F.File = absolute(E.Message.FilePath, E.BuildDirectory);
    F.Offset = E.Message.FileOffset;
    if (!F.File.empty())
      Position(F.File, F.Offset, F.Line, F.Column);
    for (const tooling::DiagnosticMessage &N : E.Notes) {
      Note Nt;
      Nt.Message = N.Message;
      Nt.File = AbsoluteNotesAndFixes ? absolute(N.FilePath, E.BuildDirectory) : N.FilePath;
      Nt.Offset = N.FileOffset;
      if (!Nt.File.empty())
        Position(Nt.File, Nt.Offset, Nt.Line, Nt.Column);
      F.Notes.push_back(std::move(Nt));
    }
    for (const auto &FileReps : E.Message.Fix)
      for (const tooling::Replacement &Rp : FileReps.second)
        F.Fixes.push_back(
            {AbsoluteNotesAndFixes ? absolute(Rp.getFilePath(), E.BuildDirectory) : Rp.getFilePath().str(),
             Rp.getOffset(), Rp.getLength(), Rp.getReplacementText().str()});
    R.Findings.push_back(std::move(F));
  }
}

} // namespace torchlint

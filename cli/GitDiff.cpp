// --since GIT_REF: keep only findings on lines added or changed since REF (the working tree,
// staged and unstaged changes included, against REF), for adopting torchlint on legacy code.
#include "core/Findings.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <map>
#include <set>

namespace torchlint {

namespace {

/// Runs git with Args; stdout in Out. Returns the exit code (-1: could not run).
int git(llvm::ArrayRef<std::string> Args, std::string &Out) {
  static llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return -1;
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("torchlint-git", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("torchlint-git", "err", ErrFile))
    return -1;
  std::vector<llvm::StringRef> Argv = {*Git};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutFile),
                                                llvm::StringRef(ErrFile)};
  int RC = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects);
  if (auto B = llvm::MemoryBuffer::getFile(OutFile))
    Out = (*B)->getBuffer().str();
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  return RC;
}

/// Parses `git diff -U0` output: the new-side line numbers of added or changed lines.
void addedLines(llvm::StringRef Diff, std::set<unsigned> &Lines) {
  llvm::SmallVector<llvm::StringRef> Rows;
  Diff.split(Rows, '\n');
  for (llvm::StringRef Row : Rows) {
    if (!Row.consume_front("@@ "))
      continue;
    size_t Plus = Row.find('+');
    if (Plus == llvm::StringRef::npos)
      continue;
    llvm::StringRef Spec = Row.substr(Plus + 1);
    Spec = Spec.take_until([](char C) { return C == ' '; });
    auto [StartS, CountS] = Spec.split(',');
    unsigned Start = 0, Count = 1;
    if (StartS.getAsInteger(10, Start))
      continue;
    if (!CountS.empty() && CountS.getAsInteger(10, Count))
      continue;
    for (unsigned L = Start; L < Start + Count; ++L)
      Lines.insert(L);
  }
}

} // namespace

bool filterSinceGitRef(RunResult &R, llvm::StringRef Ref, std::string &Err) {
  struct FileLines {
    bool All = false; // untracked: every line is new
    std::set<unsigned> Lines;
  };
  std::map<std::string, FileLines> Changed;
  std::map<std::string, std::string> Toplevel; // directory -> repository root
  std::set<std::string> VerifiedIn;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError() || F.File.empty() || Changed.count(F.File))
      continue;
    std::string Dir = llvm::sys::path::parent_path(F.File).str();
    std::string Out;
    auto TL = Toplevel.find(Dir);
    if (TL == Toplevel.end()) {
      if (git({"-C", Dir, "rev-parse", "--show-toplevel"}, Out) != 0) {
        Err = "--since: '" + F.File + "' is not in a git repository";
        return false;
      }
      TL = Toplevel.emplace(Dir, llvm::StringRef(Out).trim().str()).first;
    }
    const std::string &Top = TL->second;
    if (!VerifiedIn.count(Top)) {
      if (git({"-C", Top, "rev-parse", "--verify", "--quiet", (Ref + "^{commit}").str()}, Out) != 0) {
        Err = "--since: '" + Ref.str() + "' is not a commit in " + Top;
        return false;
      }
      VerifiedIn.insert(Top);
    }
    FileLines &FL = Changed[F.File];
    if (git({"-C", Top, "ls-files", "--error-unmatch", "--", F.File}, Out) != 0) {
      FL.All = true; // not tracked yet: all of it is new
      continue;
    }
    if (git({"-C", Top, "diff", "--no-color", "--no-ext-diff", "-U0", Ref.str(), "--", F.File}, Out) != 0) {
      Err = "--since: git diff failed for '" + F.File + "'";
      return false;
    }
    addedLines(Out, FL.Lines);
  }
  std::vector<Finding> Kept;
  for (Finding &F : R.Findings) {
    auto It = Changed.find(F.File);
    if (F.isCompilerError() || (It != Changed.end() && (It->second.All || It->second.Lines.count(F.Line))))
      Kept.push_back(std::move(F));
  }
  R.Findings = std::move(Kept);
  return true;
}

} // namespace torchlint

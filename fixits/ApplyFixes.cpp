#include "ApplyFixes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>

namespace torchlint {

bool writeFileAtomically(const std::string &Path, llvm::StringRef Content, std::string &Err) {
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(Path, St)) {
    Err = Path + ": " + EC.message();
    return false;
  }
  if (llvm::sys::fs::access(Path, llvm::sys::fs::AccessMode::Write)) {
    Err = Path + ": file is read-only";
    return false;
  }
  llvm::SmallString<256> Tmp;
  int FD;
  llvm::SmallString<256> Model(Path);
  Model += ".torchlint-%%%%%%";
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Tmp)) {
    Err = Path + ": cannot create a temporary file: " + EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Content;
    OS.flush();
    if (OS.has_error()) {
      Err = Path + ": write failed: " + OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return false;
    }
  }
  llvm::sys::fs::setPermissions(Tmp, St.permissions());
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    Err = Path + ": rename failed: " + EC.message();
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

FixReport applyFixes(const RunResult &R) {
  FixReport Rep;
  // file -> (replacement, finding)
  std::map<std::string, std::vector<std::pair<Replacement, const Finding *>>> ByFile;
  for (const Finding &F : R.Findings) {
    if (F.isCompilerError() || F.Fixes.empty())
      continue;
    for (const Replacement &Rp : F.Fixes)
      ByFile[Rp.File].push_back({Rp, &F});
  }
  for (auto &[File, Reps] : ByFile) {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      Rep.Errors.push_back(File + ": " + Buf.getError().message());
      continue;
    }
    std::string Content = (*Buf)->getBuffer().str();
    // Keep whole findings together: a finding's fix applies only if none of its edits overlaps
    // an accepted edit of another finding.
    std::vector<std::pair<unsigned, unsigned>> Taken; // [begin, end)
    std::vector<Replacement> Accepted;
    const Finding *Current = nullptr;
    std::vector<Replacement> Group;
    auto Overlaps = [&](const Replacement &A) {
      for (auto &[B, E] : Taken) {
        unsigned AB = A.Offset, AE = A.Offset + A.Length;
        if (AB < E && B < AE)
          return true;
        if (A.Length == 0 && AB > B && AB < E)
          return true;
        if (AB == B && AE == E && A.Length == 0 && B == E)
          return true;
      }
      return false;
    };
    auto Flush = [&]() {
      if (!Current)
        return;
      bool Bad = false;
      for (const Replacement &G : Group)
        if (G.Offset + G.Length > Content.size() || Overlaps(G))
          Bad = true;
      if (Bad) {
        Rep.Conflicts.push_back(File + ":" + std::to_string(Current->Line) + ": fix for " +
                                Current->Check + " overlaps another fix; not applied");
      } else {
        for (const Replacement &G : Group) {
          Taken.push_back({G.Offset, G.Offset + G.Length});
          Accepted.push_back(G);
        }
        ++Rep.Applied;
      }
      Group.clear();
    };
    for (auto &[Rp, F] : Reps) {
      if (F != Current) {
        Flush();
        Current = F;
      }
      Group.push_back(Rp);
    }
    Flush();
    if (Accepted.empty())
      continue;
    std::stable_sort(Accepted.begin(), Accepted.end(),
                     [](const Replacement &A, const Replacement &B) { return A.Offset > B.Offset; });
    for (const Replacement &Rp : Accepted)
      Content.replace(Rp.Offset, Rp.Length, Rp.Text);
    std::string Err;
    if (writeFileAtomically(File, Content, Err))
      Rep.FilesChanged.push_back(File);
    else
      Rep.Errors.push_back(Err);
  }
  return Rep;
}

} // namespace torchlint

#include "fixits/ApplyFixes.h"
#include "utils/AtomicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>

namespace torchlint {

namespace {
bool isReadOnly(const std::string &Path, const llvm::sys::fs::file_status &St) {
  using namespace llvm::sys::fs;
  // The permission bits first: root may write anything, but a file marked read-only says "don't".
  if (!(St.permissions() & (owner_write | group_write | others_write)))
    return true;
  return static_cast<bool>(access(Path, AccessMode::Write));
}
} // namespace

bool writeFileAtomically(const std::string &Path, llvm::StringRef Content, std::string &Err,
                         std::optional<uint64_t> ExpectedHash) {
  llvm::sys::fs::file_status St;
  if (std::error_code EC = llvm::sys::fs::status(Path, St)) {
    Err = Path + ": " + EC.message();
    return false;
  }
  if (St.type() != llvm::sys::fs::file_type::regular_file) {
    Err = Path + ": not a regular file; not fixed";
    return false;
  }
  if (isReadOnly(Path, St)) {
    Err = Path + ": file is read-only; not fixed";
    return false;
  }
  AtomicWriteError E;
  bool Written = writeFileAtomically(Path, Content, &E, [&](llvm::StringRef Tmp) {
    llvm::sys::fs::setPermissions(Tmp, St.permissions());
    // Last look before the rename: the file must still be what was analysed.
    if (ExpectedHash) {
      auto Now = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!Now || contentHash((*Now)->getBuffer()) != *ExpectedHash) {
        Err = Path + ": changed since it was analysed; not fixed (run torchlint again)";
        return false;
      }
    }
    return true;
  });
  if (!Written) {
    switch (E.Step) {
    case AtomicWriteError::CreateTemp:
      Err = Path + ": cannot create a temporary file: " + E.EC.message();
      break;
    case AtomicWriteError::Write:
      Err = Path + ": write failed: " + E.EC.message();
      break;
    case AtomicWriteError::Rename:
      Err = Path + ": rename failed: " + E.EC.message();
      break;
    case AtomicWriteError::Abandoned:
      break; // Err says why
    }
    return false;
  }
  return true;
}

std::string applyFixesToContent(llvm::StringRef File, llvm::StringRef Content, const std::vector<Finding> &Findings,
                                FixReport &Rep) {
  // Keep whole findings together: a finding's fix applies only if none of its edits overlaps an
  // accepted edit of another finding (or of itself) and all lie inside the text. Findings are
  // taken in the order given (sorted by position), so the earlier finding wins a conflict.
  std::multimap<unsigned, unsigned> Taken; // begin -> end of accepted edits
  std::vector<Replacement> Accepted;
  // Two edits conflict when their ranges intersect, when an insertion falls strictly inside a
  // replaced range, or when two insertions hit the same offset (their order would be arbitrary).
  auto Conflict = [](unsigned AB, unsigned AE, unsigned B, unsigned E) {
    return (AB < E && B < AE) || (AB == AE && B == E && AB == B);
  };
  // Accepted non-empty ranges are disjoint, so only the ranges beginning in [AB, AE] and those
  // sharing the last begin before AB can conflict: O(log n) per edit, not O(n).
  auto Overlaps = [&](unsigned AB, unsigned AE) {
    auto It = Taken.lower_bound(AB);
    if (It != Taken.begin()) {
      unsigned PrevBegin = std::prev(It)->first;
      for (auto P = It; P != Taken.begin() && std::prev(P)->first == PrevBegin; --P)
        if (Conflict(AB, AE, std::prev(P)->first, std::prev(P)->second))
          return true;
    }
    for (; It != Taken.end() && It->first <= AE; ++It)
      if (Conflict(AB, AE, It->first, It->second))
        return true;
    return false;
  };
  for (const Finding &F : Findings) {
    if (F.isCompilerError())
      continue;
    std::vector<const Replacement *> Group;
    for (const Replacement &Rp : F.Fixes)
      if (Rp.File == File)
        Group.push_back(&Rp);
    if (Group.empty())
      continue;
    bool Bad = false;
    std::vector<std::pair<unsigned, unsigned>> Own;
    for (const Replacement *G : Group) {
      uint64_t End = uint64_t(G->Offset) + G->Length;
      if (End > Content.size() || Overlaps(G->Offset, unsigned(End))) {
        Bad = true;
        break;
      }
      for (auto &[B, E] : Own)
        if (Conflict(G->Offset, unsigned(End), B, E))
          Bad = true;
      Own.push_back({G->Offset, unsigned(End)});
    }
    if (Bad) {
      Rep.Conflicts.push_back(File.str() + ":" + std::to_string(F.Line) + ": fix for " + F.Check +
                              " overlaps another fix; not applied");
      continue;
    }
    for (const Replacement *G : Group) {
      Taken.insert({G->Offset, G->Offset + G->Length});
      Accepted.push_back(*G);
    }
    ++Rep.Applied;
  }
  std::string Out;
  if (Accepted.empty())
    return Content.str();
  // At one offset an insertion goes before the replacement that starts there (as clang orders them).
  std::stable_sort(Accepted.begin(), Accepted.end(), [](const Replacement &A, const Replacement &B) {
    return std::make_pair(A.Offset, A.Length) < std::make_pair(B.Offset, B.Length);
  });
  // One pass, front to back: linear in the file size plus the edits.
  Out.reserve(Content.size());
  unsigned Pos = 0;
  for (const Replacement &Rp : Accepted) {
    Out.append(Content.data() + Pos, Rp.Offset - Pos);
    Out += Rp.Text;
    Pos = Rp.Offset + Rp.Length;
  }
  Out.append(Content.data() + Pos, Content.size() - Pos);
  return Out;
}

FixReport applyFixes(const RunResult &R, const FileHashes *Seen) {
  FixReport Rep;
  std::map<std::string, bool> Files; // every file with at least one edit
  for (const Finding &F : R.Findings)
    if (!F.isCompilerError())
      for (const Replacement &Rp : F.Fixes)
        Files[Rp.File] = true;
  for (auto &[File, Unused] : Files) {
    (void)Unused;
    auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf) {
      Rep.Errors.push_back(File + ": " + Buf.getError().message());
      continue;
    }
    llvm::StringRef Content = (*Buf)->getBuffer();
    std::optional<uint64_t> Expected;
    if (Seen) {
      Expected = Seen->lookup(File);
      if (!Expected) {
        Rep.Errors.push_back(File + ": not among the files the analysis read; not fixed");
        continue;
      }
      if (contentHash(Content) != *Expected) {
        Rep.Errors.push_back(File + ": changed since it was analysed; not fixed (run torchlint again)");
        continue;
      }
    }
    FixReport Local;
    std::string NewContent = applyFixesToContent(File, Content, R.Findings, Local);
    Rep.Conflicts.insert(Rep.Conflicts.end(), Local.Conflicts.begin(), Local.Conflicts.end());
    if (!Local.Applied || NewContent == Content)
      continue;
    std::string Err;
    if (writeFileAtomically(File, NewContent, Err, Expected)) {
      Rep.FilesChanged.push_back(File);
      Rep.Originals.push_back({File, Content.str(), contentHash(NewContent)});
      Rep.Applied += Local.Applied;
    } else {
      Rep.Errors.push_back(Err);
    }
  }
  return Rep;
}

} // namespace torchlint

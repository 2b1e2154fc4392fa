// Safe application of fix-its: per file, non-overlapping replacements only, written atomically
// (temporary file in the same directory, then rename; permissions kept). A file that changed since
// it was analysed, or that cannot be written (read-only), is left untouched and reported.
#pragma once
#include "utils/FileHashes.h"
#include "core/Findings.h"
#include <string>
#include <vector>

namespace torchlint {

struct FixReport {
  std::vector<std::string> FilesChanged;
  unsigned Applied = 0;
  std::vector<std::string> Conflicts; // "file:line: fix for <check> overlaps another fix; not applied"
  std::vector<std::string> Errors;    // files that could not be written, or changed since analysis
  /// Each changed file's content before the fix and the hash of what was written, for --verify.
  struct Original {
    std::string File, Before;
    uint64_t AfterHash = 0;
  };
  std::vector<Original> Originals;
};

/// Applies the fixes of every finding that is not a compiler diagnostic. With Seen, a file whose
/// content hash differs from the one recorded at analysis time is not touched (reported in Errors).
FixReport applyFixes(const RunResult &R, const FileHashes *Seen = nullptr);

/// The pure part: applies to Content (the text of File) the fixes in File of Findings, a finding's
/// edits all or none, skipping findings whose edits overlap an accepted edit or fall outside the
/// text (reported in Rep.Conflicts; Rep.Applied counts accepted findings). Returns the new text.
std::string applyFixesToContent(llvm::StringRef File, llvm::StringRef Content, const std::vector<Finding> &Findings,
                                FixReport &Rep);

/// Writes Content to Path atomically (utils/AtomicFile.h), keeping Path's permissions. Refuses a
/// read-only Path, and, with ExpectedHash, a Path whose current content no longer has that hash.
bool writeFileAtomically(const std::string &Path, llvm::StringRef Content, std::string &Err,
                         std::optional<uint64_t> ExpectedHash = std::nullopt);

} // namespace torchlint

// Safe application of fix-its: per file, non-overlapping replacements only, written atomically
// (temporary file in the same directory, then rename; permissions kept). A file that changed since
// it was analysed, or that cannot be written, is left untouched and reported.
#pragma once
#include "Findings.h"
#include <string>
#include <vector>

namespace torchlint {

struct FixReport {
  std::vector<std::string> FilesChanged;
  unsigned Applied = 0;
  std::vector<std::string> Conflicts; // "file:line: fix for <check> overlaps an earlier fix"
  std::vector<std::string> Errors;    // files that could not be written
};

/// Applies the fixes of every finding whose check is not a compiler diagnostic.
FixReport applyFixes(const RunResult &R);

/// Writes Content to Path atomically, keeping Path's permissions.
bool writeFileAtomically(const std::string &Path, llvm::StringRef Content, std::string &Err);

} // namespace torchlint

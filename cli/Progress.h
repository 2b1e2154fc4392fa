// The progress line on stderr during long runs, when stderr is a terminal:
//   torchlint: 12/40 files, ETA 1:05            (findings shown once known, at the end)
#pragma once
#include "llvm/ADT/StringRef.h"
#include <chrono>

namespace torchlint {

class Progress {
public:
  /// Enabled when stderr is a terminal and TORCHLINT_PROGRESS is not "0" (or when it is "1").
  Progress(unsigned Total, bool Allowed = true);
  ~Progress() { finish(); }
  bool enabled() const { return Enabled; }
  /// Findings are shown when known (the workers' findings arrive when they finish).
  void update(unsigned Done, unsigned Findings, bool FindingsKnown = true);
  /// Clears the line.
  void finish();

private:
  bool Enabled = false, Shown = false;
  unsigned Total;
  std::chrono::steady_clock::time_point Start;
};

/// Worker side: appends "1 <findings>\n" to File after each translation unit.
void appendProgress(llvm::StringRef File, unsigned Findings);
/// Parent side: translation units done and findings so far, summed over a worker's progress file.
void readProgress(llvm::StringRef File, unsigned &Done, unsigned &Findings);

} // namespace torchlint

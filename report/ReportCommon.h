// Helpers shared by the audit report writers (SARIF, HTML, Markdown): paths relative to the report
// root, file URIs, fix-its as unified diffs, per-check and per-file counts, the probe's results.
#pragma once
#include "core/Findings.h"
#include "core/SummariesJson.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace torchlint {

/// Path relative to Root when it lies under Root, else Path unchanged.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);
/// file:// URI of an absolute path (percent-encoded); with Dir, ends in '/'.
std::string fileUri(llvm::StringRef Path, bool Dir = false);
/// Percent-encodes a relative path for a URI reference.
std::string uriEncode(llvm::StringRef Path);
std::string uriDecode(llvm::StringRef S);

/// The SARIF run property that holds a project-mode shard's summaries (RunResult::Summaries).
constexpr const char *SummariesProperty = "torchlint/summaries";
/// Appends what summariesJson (core/SummariesJson.h) wrote to Out.Summaries.
void readSummaries(const llvm::json::Array &A, RunResult &Out);

/// Lines [First, Last] of File (1-based), without newlines; empty when unreadable.
std::vector<std::string> sourceLines(llvm::StringRef File, unsigned First, unsigned Last);

/// A finding's fix-its rendered as a unified diff of the lines they touch (exact: the replacements
/// applied to the file's current text). Empty when the finding has none or the file is unreadable.
std::string fixDiff(const Finding &F, llvm::StringRef DisplayName);

struct CheckCount {
  std::string Check;
  unsigned Total = 0, Warnings = 0, Remarks = 0, Fixable = 0;
};
struct FileCount {
  std::string File;
  unsigned Total = 0, Warnings = 0, Remarks = 0;
};
/// Findings (compiler errors excluded) counted per check (most first) and per file (most first).
std::vector<CheckCount> countByCheck(const RunResult &R);
std::vector<FileCount> countByFile(const RunResult &R);

/// One measured case of the runtime probe (docs/probe/*.json, issue 6's shape).
struct ProbeResult {
  std::string Check, Case, Device, Source; // Source: the JSON file, relative to ProbeDir's parent's parent
  double Speedup = 0, BeforeMs = 0, AfterMs = 0;
  /// Operators per step that would synchronise on CUDA, counted from the dispatcher
  /// ("counted.syncs_per_step", issue 15); negative when the JSON has no count.
  double BeforeSyncs = -1, AfterSyncs = -1;
};
/// Best-evidence probe result per check: the GPU runs over the CPU ones, and of those the run with
/// the median speedup (the lower middle one), not the highest: one lease's noise is not cited.
/// Cases that were not equivalent are ignored. Empty when ProbeDir has no results.
std::map<std::string, ProbeResult> loadProbeResults(llvm::StringRef ProbeDir);
/// "measured 3.9x faster (12.3 ms -> 3.1 ms per step) on NVIDIA H100 (docs/probe/x.json)", then
/// "; removes 1 host-device sync per step, counted by the probe" when the fix removes counted syncs.
std::string describeProbe(const ProbeResult &P);

} // namespace torchlint

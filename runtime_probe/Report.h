// The probe's results and the three reports written from them: JSON (the shape issue 6 fixes),
// a Markdown table and an SVG bar chart of the speedups.
#pragma once
#include "Measure.h"

#include <optional>
#include <string>
#include <vector>

namespace probe {

struct CaseResult {
  std::string check, name, what, after_source;
  Stats before, after;
  bool equivalent = false;
  std::string equivalence_detail; // tolerance used, or the first output that differs
  bool timed = false;
  double speedup() const { return after.median_ms > 0 ? before.median_ms / after.median_ms : 0; }
};

struct StageResult {
  std::string label;
  Stats stats;
  bool equivalent = false;
  std::string equivalence_detail;
};

struct SeedResult {
  std::string name, what;
  std::vector<StageResult> stages;
};

struct RunInfo {
  std::string device; // "cpu" or "cuda"
  std::string device_description;
  std::string torch_version;
  std::optional<std::string> cuda_version;
  std::string date; // UTC, ISO 8601
  std::string command;
  std::string load_start, load_end; // /proc/loadavg (shared machines make CPU timings noisy)
  bool quick = false;
  MeasureOptions options;
};

std::string toJson(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds);
std::string toMarkdown(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds);
std::string toSvg(const RunInfo &info, const std::vector<CaseResult> &cases, const std::vector<SeedResult> &seeds);

} // namespace probe

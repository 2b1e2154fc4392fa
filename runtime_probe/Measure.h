// Timing, sync counting and peak memory for one variant.
#pragma once
#include "Counting.h"
#include "probe/Probe.h"

#include <optional>
#include <string>

namespace probe {

struct Stats {
  double median_ms = 0, p10_ms = 0, p90_ms = 0;
  /// On CUDA: the sync debug mode's count ("cuda-sync-debug-mode"); on the CPU: the dispatcher's
  /// count of operators that would synchronise on CUDA ("dispatcher"). Never a mix of the two.
  std::optional<double> syncs_per_step;
  std::string syncs_source;
  std::optional<int64_t> peak_bytes; // CUDA only
  /// Counted from the dispatcher and the allocators, on every device (Counting.h).
  std::optional<Counts> counted;
};

struct MeasureOptions {
  int warmup_steps = 3;
  int repetitions = 20;  // samples for median/p10/p90
  int steps_per_rep = 5; // steps timed together (lets the host run ahead of the device)
  int count_steps = 3;   // steps counted (after the warm-up, before the timing)
};

/// Warm-up, then the counted metrics (dispatcher, allocators; untimed), then sync count and peak memory over one repetition (CUDA), then Google Benchmark
/// with manual time: CUDA events on the GPU, std::chrono::steady_clock on the CPU.
Stats measure(const std::string &label, Variant &v, const Ctx &ctx, const MeasureOptions &opt);

/// Waits for the device (no-op on the CPU).
void deviceSynchronize(const Ctx &ctx);

/// "cuda" when this binary was built against a libtorch with CUDA.
bool builtWithCuda();
/// Installs, for the calling thread, a handler that prints libtorch's warnings (TORCH_WARN) once
/// each, with the probe's own std::cerr. With the torch wheel's libtorch (2.11, Ubuntu 24.04,
/// g++ 13, C++20) the default handler's printing (c10::MessageLogger) crashed the probe; the
/// autograd engine replays backward's warnings on the thread that called backward().
void installWarningPrinter();
/// torch, CUDA runtime and device descriptions for the report.
std::string torchVersion();
std::optional<std::string> cudaVersion();
std::string deviceDescription(const Ctx &ctx);

} // namespace probe

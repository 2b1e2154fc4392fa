#include "Measure.h"

#include <benchmark/benchmark.h>
#include <torch/version.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <map>
#include <thread>

// The CUDA paths compile when CMake found a libtorch with CUDA (PROBE_WITH_CUDA=1) and the
// headers offer what they need; the CPU build never includes a CUDA header.
#if defined(PROBE_WITH_CUDA) && PROBE_WITH_CUDA && __has_include(<ATen/cuda/CUDAEvent.h>) && \
    __has_include(<c10/cuda/CUDAFunctions.h>) && __has_include(<c10/cuda/CUDACachingAllocator.h>)
#define PROBE_CUDA 1
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#else
#define PROBE_CUDA 0
#endif

namespace probe {

bool builtWithCuda() { return PROBE_CUDA; }

std::string torchVersion() { return TORCH_VERSION; }

std::optional<std::string> cudaVersion() {
#if PROBE_CUDA
  int V = 0;
  if (cudaRuntimeGetVersion(&V) == cudaSuccess)
    return std::to_string(V / 1000) + "." + std::to_string((V % 1000) / 10);
#endif
  return std::nullopt;
}

std::string deviceDescription(const Ctx &ctx) {
#if PROBE_CUDA
  if (ctx.cuda())
    return at::cuda::getDeviceProperties(ctx.device.has_index() ? ctx.device.index() : 0)->name;
#endif
  (void)ctx;
  std::ifstream In("/proc/cpuinfo");
  std::string Line, Model = "unknown CPU";
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0) {
      Model = Line.substr(Line.find(':') + 2);
      break;
    }
  return Model + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads, " +
         std::to_string(at::get_num_threads()) + " intra-op threads";
}

namespace {
class WarningPrinter : public c10::WarningHandler {
public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning &W) override { print(W.msg()); }
#else
  void process(const c10::SourceLocation &, const std::string &Msg, const bool) override { print(Msg); }
#endif
private:
  void print(const std::string &Msg) {
    std::lock_guard<std::mutex> L(M);
    if (Seen.insert(Msg).second)
      std::cerr << "torchlint-probe: libtorch warning: " << Msg << "\n";
  }
  std::mutex M;
  std::set<std::string> Seen;
};
} // namespace

void installWarningPrinter() {
  static WarningPrinter Printer;
#if TORCH_VERSION_MAJOR >= 2
  c10::WarningUtils::set_warning_handler(&Printer);
#else
  c10::Warning::set_warning_handler(&Printer);
#endif
}

void deviceSynchronize(const Ctx &ctx) {
#if PROBE_CUDA
  if (ctx.cuda())
    torch::cuda::synchronize();
#endif
  (void)ctx;
}

namespace {

double percentile(const std::vector<double> &V, double Q) {
  if (V.empty())
    return 0;
  std::vector<double> S(V);
  std::sort(S.begin(), S.end());
  double Pos = Q * double(S.size() - 1);
  size_t Lo = size_t(Pos);
  size_t Hi = std::min(Lo + 1, S.size() - 1);
  return S[Lo] + (S[Hi] - S[Lo]) * (Pos - double(Lo));
}
double p10(const std::vector<double> &V) { return percentile(V, 0.10); }
double p90(const std::vector<double> &V) { return percentile(V, 0.90); }

/// Collects the aggregates Google Benchmark computes for one benchmark.
class Collector : public benchmark::BenchmarkReporter {
public:
  std::map<std::string, double> Aggregates; // "median", "p10", "p90", "mean" -> ms per step
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &Runs) override {
    for (const Run &R : Runs)
      if (R.run_type == Run::RT_Aggregate)
        Aggregates[R.aggregate_name] = R.GetAdjustedRealTime();
  }
};

#if PROBE_CUDA
/// Counts the warnings c10::cuda's sync debug mode emits for each synchronizing call.
class SyncCounter : public c10::WarningHandler {
public:
  std::atomic<int64_t> Count{0};
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning &W) override { note(W.msg()); }
#else
  void process(const c10::SourceLocation &, const std::string &Msg, const bool) override { note(Msg); }
#endif
private:
  void note(const std::string &Msg) {
    if (Msg.find("synchroniz") != std::string::npos)
      ++Count;
  }
};
#endif

void benchmarkInit() {
  static bool Done = false;
  if (Done)
    return;
  Done = true;
  static char Arg0[] = "torchlint-probe";
  static char *Argv[] = {Arg0, nullptr};
  int Argc = 1;
  benchmark::Initialize(&Argc, Argv);
}

} // namespace

Stats measure(const std::string &label, Variant &v, const Ctx &ctx, const MeasureOptions &opt) {
  Stats S;
  for (int I = 0; I < opt.warmup_steps; ++I)
    v.step();
  deviceSynchronize(ctx);

  // Counted, not timed: the callbacks cost time.
  int64_t Held = v.heldGraphNodes();
  S.counted = countSteps([&v] { v.step(); }, opt.count_steps);
  if (Held >= 0)
    S.counted->graph_nodes_held = v.heldGraphNodes() - Held;
  deviceSynchronize(ctx);
  if (!ctx.cuda()) {
    S.syncs_per_step = S.counted->perStep(S.counted->syncs);
    S.syncs_source = "dispatcher";
  }

#if PROBE_CUDA
  if (ctx.cuda()) {
    c10::DeviceIndex Dev = ctx.device.has_index() ? ctx.device.index() : c10::cuda::current_device();
    c10::cuda::CUDACachingAllocator::resetPeakStats(Dev);
    SyncCounter Counter;
#if TORCH_VERSION_MAJOR >= 2
    namespace WarningNs = c10::WarningUtils;
#else
    namespace WarningNs = c10::Warning;
#endif
    c10::WarningHandler *Old = WarningNs::get_warning_handler();
    WarningNs::set_warning_handler(&Counter);
    c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_WARN);
    for (int I = 0; I < opt.steps_per_rep; ++I)
      v.step();
    c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_DISABLED);
    WarningNs::set_warning_handler(Old);
    torch::cuda::synchronize();
    S.syncs_per_step = double(Counter.Count.load()) / opt.steps_per_rep;
    S.syncs_source = "cuda-sync-debug-mode";
    auto Stats = c10::cuda::CUDACachingAllocator::getDeviceStats(Dev);
    S.peak_bytes = int64_t(Stats.allocated_bytes[0].peak); // [0]: StatType::AGGREGATE
  }
#endif

  benchmarkInit();
  const int K = opt.steps_per_rep;
  auto Fn = [&v, &ctx, K](benchmark::State &State) {
    for (auto _ : State) {
#if PROBE_CUDA
      if (ctx.cuda()) {
        at::cuda::CUDAEvent Start(cudaEventDefault), End(cudaEventDefault);
        Start.record();
        for (int I = 0; I < K; ++I)
          v.step();
        End.record();
        End.synchronize();
        State.SetIterationTime(double(Start.elapsed_time(End)) / 1000.0 / K);
        continue;
      }
#endif
      (void)ctx;
      auto T0 = std::chrono::steady_clock::now();
      for (int I = 0; I < K; ++I)
        v.step();
      auto T1 = std::chrono::steady_clock::now();
      State.SetIterationTime(std::chrono::duration<double>(T1 - T0).count() / K);
    }
  };
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(label.c_str(), Fn)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1)
      ->Repetitions(opt.repetitions)
      ->ComputeStatistics("p10", &p10)
      ->ComputeStatistics("p90", &p90)
      ->ReportAggregatesOnly(true);
  Collector C;
  benchmark::RunSpecifiedBenchmarks(&C);
  benchmark::ClearRegisteredBenchmarks();
  S.median_ms = C.Aggregates["median"];
  S.p10_ms = C.Aggregates["p10"];
  S.p90_ms = C.Aggregates["p90"];
  return S;
}

} // namespace probe

// A header-only stand-in for the part of Google Benchmark (1.7) that runtime_probe/Measure.cpp uses:
// manual-time repetitions of one iteration each, aggregated as Google Benchmark does (mean,
// median, stddev and the user's ComputeStatistics functions over the repetitions' times, reported
// in the benchmark's unit). Used on the GPU machine only, where Debian's libbenchmark 1.7.1
// (carried there: the machine has no C++ benchmark library) crashed in RunSpecifiedBenchmarks
// (std::ostream::flush of the reporter's stream, libstdc++ of Ubuntu 24.04).
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace benchmark {

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
using StatisticsFunc = double(const std::vector<double> &);

class State {
public:
  struct Value {};
  struct Iterator {
    int64_t left;
    bool operator!=(const Iterator &O) const { return left != O.left; }
    void operator++() { --left; }
    Value operator*() const { return {}; }
  };
  explicit State(int64_t Iterations) : iterations_(Iterations) {}
  Iterator begin() { return {iterations_}; }
  Iterator end() { return {0}; }
  void SetIterationTime(double Seconds) { manual_ += Seconds; }
  double manual() const { return manual_; }
  int64_t iterations() const { return iterations_; }

private:
  int64_t iterations_;
  double manual_ = 0;
};

class Benchmark {
public:
  Benchmark(std::string Name, std::function<void(State &)> Fn) : name_(std::move(Name)), fn_(std::move(Fn)) {}
  Benchmark *UseManualTime() { return this; }
  Benchmark *Unit(TimeUnit U) { unit_ = U; return this; }
  Benchmark *Iterations(int64_t N) { iterations_ = N; return this; }
  Benchmark *Repetitions(int N) { repetitions_ = N; return this; }
  Benchmark *ComputeStatistics(const std::string &Name, StatisticsFunc *F) { stats_.emplace_back(Name, F); return this; }
  Benchmark *ReportAggregatesOnly(bool = true) { return this; }

  std::string name_;
  std::function<void(State &)> fn_;
  TimeUnit unit_ = kNanosecond;
  int64_t iterations_ = 1;
  int repetitions_ = 1;
  std::vector<std::pair<std::string, StatisticsFunc *>> stats_;
};

inline std::vector<std::unique_ptr<Benchmark>> &registered() {
  static std::vector<std::unique_ptr<Benchmark>> R;
  return R;
}

template <class Lambda> Benchmark *RegisterBenchmark(const char *Name, Lambda &&Fn) {
  registered().push_back(std::make_unique<Benchmark>(Name, std::function<void(State &)>(std::forward<Lambda>(Fn))));
  return registered().back().get();
}
inline void ClearRegisteredBenchmarks() { registered().clear(); }
inline void Initialize(int *, char **) {}

class BenchmarkReporter {
public:
  struct Context {};
  struct Run {
    enum RunType { RT_Iteration, RT_Aggregate };
    RunType run_type = RT_Iteration;
    std::string aggregate_name;
    double real_seconds = 0; // per iteration
    double multiplier = 1;
    double GetAdjustedRealTime() const { return real_seconds * multiplier; }
  };
  virtual ~BenchmarkReporter() = default;
  virtual bool ReportContext(const Context &) = 0;
  virtual void ReportRuns(const std::vector<Run> &) = 0;
};

inline double StatisticsMean(const std::vector<double> &V) {
  return V.empty() ? 0 : std::accumulate(V.begin(), V.end(), 0.0) / double(V.size());
}
inline double StatisticsMedian(const std::vector<double> &V) { // as Google Benchmark's
  if (V.size() < 3)
    return StatisticsMean(V);
  std::vector<double> C(V);
  auto Center = C.begin() + C.size() / 2;
  std::nth_element(C.begin(), Center, C.end());
  if (C.size() % 2 == 1)
    return *Center;
  auto Center2 = C.begin() + C.size() / 2 - 1;
  std::nth_element(C.begin(), Center2, C.end());
  return (*Center + *Center2) / 2.0;
}
inline double StatisticsStdDev(const std::vector<double> &V) {
  if (V.size() < 2)
    return 0;
  double M = StatisticsMean(V), S = 0;
  for (double X : V)
    S += (X - M) * (X - M);
  return std::sqrt(S / double(V.size() - 1));
}

inline size_t RunSpecifiedBenchmarks(BenchmarkReporter *Reporter) {
  BenchmarkReporter::Context Ctx;
  Reporter->ReportContext(Ctx);
  for (auto &B : registered()) {
    double Mult = B->unit_ == kMillisecond ? 1e3 : B->unit_ == kMicrosecond ? 1e6 : B->unit_ == kSecond ? 1 : 1e9;
    std::vector<double> Times; // seconds per iteration, one per repetition
    for (int R = 0; R < B->repetitions_; ++R) {
      State S(B->iterations_);
      B->fn_(S);
      Times.push_back(S.manual() / double(std::max<int64_t>(1, B->iterations_)));
    }
    std::vector<BenchmarkReporter::Run> Runs;
    auto Add = [&](const std::string &Name, double V) {
      BenchmarkReporter::Run Run;
      Run.run_type = BenchmarkReporter::Run::RT_Aggregate;
      Run.aggregate_name = Name;
      Run.real_seconds = V;
      Run.multiplier = Mult;
      Runs.push_back(Run);
    };
    Add("mean", StatisticsMean(Times));
    Add("median", StatisticsMedian(Times));
    Add("stddev", StatisticsStdDev(Times));
    for (auto &[Name, F] : B->stats_)
      Add(Name, F(Times));
    Reporter->ReportRuns(Runs);
  }
  return registered().size();
}

} // namespace benchmark

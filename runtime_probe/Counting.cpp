#include "Counting.h"

#include "SyncOps.h"

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/csrc/profiler/orchestration/observer.h>

#include <memory>
#include <tuple>
#include <type_traits>
#include <mutex>
#include <vector>

namespace probe {

namespace {

struct Frame {
  bool had_child = false;
};

// One operator stack per thread (the thread that runs countSteps and the threads libtorch
// propagates its thread-local state to, e.g. the autograd engine's); one Counts for all of them.
thread_local std::vector<Frame> tStack;
thread_local int tInsideSync = 0;
Counts *gCounts = nullptr; // set only while countSteps runs
std::mutex gMutex;

struct OpContext : at::ObserverContext {
  bool sync = false;
};

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  if (!gCounts)
    return nullptr;
  OpClass C = classifyOp(Fn, tStack.empty());
  auto Ctx = std::make_unique<OpContext>();
  std::lock_guard<std::mutex> L(gMutex);
  Counts &K = *gCounts;
  // FUNCTION scope: operators, and the autograd engine's record around each backward node, which
  // is no operator but makes the operators the node runs calls from inside libtorch, not from the
  // program (ToCopyBackward's to(options), ...).
  if (Fn.scope() == at::RecordScope::FUNCTION) {
    if (isOperator(Fn)) {
      ++K.dispatches;
      if (tStack.empty())
        ++K.top_level_ops;
      else
        tStack.back().had_child = true;
      if (C.transfer) { // top-level calls only (SyncOps.h): the _to_copy inside a to() is the same copy
        ++K.copies;
        K.copy_bytes += C.bytes;
      }
    }
    tStack.push_back(Frame{});
  }
  if (C.sync && tInsideSync == 0) {
    ++K.syncs;
    ++K.sync_rules[C.rule];
    Ctx->sync = true;
    ++tInsideSync;
  }
  return Ctx;
}

void onEnd(const at::RecordFunction &Fn, at::ObserverContext *Ctx) {
  if (!gCounts || !Ctx)
    return;
  std::lock_guard<std::mutex> L(gMutex);
  if (static_cast<OpContext *>(Ctx)->sync)
    --tInsideSync;
  if (Fn.scope() == at::RecordScope::FUNCTION && !tStack.empty()) {
    if (isOperator(Fn) && !tStack.back().had_child)
      ++gCounts->leaf_ops;
    tStack.pop_back();
  }
}

/// The type of reportMemoryUsage's totals: int64_t in libtorch 1.13, size_t in 2.x.
template <class> struct TotalOf;
template <class R, class C, class... A> struct TotalOf<R (C::*)(A...)> {
  using type = std::tuple_element_t<2, std::tuple<A...>>;
};
using Total = TotalOf<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::type;

/// Receives the allocators' reports (c10::reportMemoryUsageToProfiler) while installed as the
/// thread's PROFILER_STATE debug info. libtorch reads that slot as a profiler state
/// (torch::profiler::impl::ProfilerStateBase::get/getTLS static_cast it, e.g. for profilerEnabled()
/// on CUDA paths), so the reporter is one: a disabled profiler (ActiveProfilerType::NONE) that only
/// wants memory reports. A bare MemoryReportingInfoBase there crashed the CUDA probe (libtorch
/// 2.11, H100): the cast read a config and a vtable slot it does not have.
struct AllocReporter : torch::profiler::impl::ProfilerStateBase {
  AllocReporter()
      : ProfilerStateBase(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::Disabled)) {}
  torch::profiler::impl::ActiveProfilerType profilerType() override {
    return torch::profiler::impl::ActiveProfilerType::NONE;
  }
  void reportMemoryUsage(void *, int64_t Size, Total, Total, c10::Device) override {
    if (!gCounts || Size <= 0)
      return;
    std::lock_guard<std::mutex> L(gMutex);
    ++gCounts->allocs;
    gCounts->alloc_bytes += Size;
  }
  bool memoryProfilingEnabled() const override { return true; }
};

} // namespace

Counts countSteps(const std::function<void()> &step, int steps) {
  Counts K;
  K.steps = steps;
  tStack.clear();
  tInsideSync = 0;
  gCounts = &K;
  at::CallbackHandle H = at::addThreadLocalCallback(
      at::RecordFunctionCallback(&onStart, &onEnd)
          .needsInputs(true)
          .scopes({at::RecordScope::FUNCTION, at::RecordScope::USER_SCOPE}));
  try {
    c10::DebugInfoGuard G(c10::DebugInfoKind::PROFILER_STATE, std::make_shared<AllocReporter>());
    for (int I = 0; I < steps; ++I)
      step();
  } catch (...) {
    at::removeCallback(H);
    gCounts = nullptr;
    throw;
  }
  at::removeCallback(H);
  gCounts = nullptr;
  return K;
}

void recordExplicitSync() { RECORD_USER_SCOPE(kExplicitSyncScope); }

} // namespace probe

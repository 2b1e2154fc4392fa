// Counted metrics of a step, read from libtorch's dispatcher (RecordFunction) and from the c10
// allocator's memory reports: exact and deterministic on any machine, the CPU included.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace probe {

struct Counts {
  int steps = 0;
  /// Operators that would synchronise the host with a CUDA device (SyncOps.h), counted once per
  /// call from outside any other counted operator (an item() inside allclose() counts once).
  int64_t syncs = 0;
  /// Every operator call the dispatcher records (all nesting depths).
  int64_t dispatches = 0;
  /// Operator calls that dispatch no other operator: the ones that run a kernel (a kernel launch
  /// on a GPU, or a view/metadata op that launches none).
  int64_t leaf_ops = 0;
  /// Operator calls made directly by the program (not from inside another operator).
  int64_t top_level_ops = 0;
  /// .to(device)/.cpu()/_to_copy(device=...) calls: host-device copies requested.
  int64_t copies = 0;
  /// The bytes those copies carry: each source's elements in the destination's dtype.
  int64_t copy_bytes = 0;
  /// Allocations reported by the c10 allocators (CPU allocator; on CUDA the caching allocator).
  int64_t allocs = 0, alloc_bytes = 0;
  /// Autograd graph nodes that the variant's long-lived state holds more after the counted steps
  /// than before (Variant::heldGraphNodes); -1 when the case does not say.
  int64_t graph_nodes_held = -1;
  /// Counted syncs by rule ("item", "nonzero", "blocking copy", ...).
  std::map<std::string, int64_t> sync_rules;

  double perStep(int64_t V) const { return steps > 0 ? double(V) / steps : 0; }
};

/// Runs `step` `steps` times on this thread with the counters on (thread-local RecordFunction
/// callback and memory reporter: a DataLoader's worker threads are not counted; the autograd
/// engine's threads are, through libtorch's thread-local state propagation).
Counts countSteps(const std::function<void()> &step, int steps);

/// Records an explicit device synchronisation the dispatcher cannot see (SyncOps.h,
/// kExplicitSyncScope): the CPU probe's stand-in for torch::cuda::synchronize().
void recordExplicitSync();

} // namespace probe

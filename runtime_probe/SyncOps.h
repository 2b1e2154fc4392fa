// Which dispatched operators would synchronise the host with a CUDA device, read from a
// RecordFunction callback (ATen/record_function.h, libtorch 1.13 and 2.x). Shared by the probe's
// counters (Counting.cpp) and `torchlint trace` (runtime_probe/trace/). The list and the reason
// for each entry: docs/probe/README.md ("What is counted").
#pragma once
#include <ATen/record_function.h>

#include <cstdint>
#include <cstring>

namespace probe {

struct OpClass {
  /// Would block the host until the device has finished the queued work (on CUDA).
  bool sync = false;
  /// Names a device: .to(device), .cpu(), .cuda(), _to_copy(device=...). On the CPU such a
  /// request copies nothing (or copies within host memory); it is counted as requested.
  bool transfer = false;
  /// For a transfer: non_blocking=false (a blocking copy is a stream sync on CUDA, Copy.cu's
  /// memcpy_and_sync, which the sync debug mode reports).
  bool blocking = false;
  /// For a transfer: the bytes that cross the bus, the source's elements in the destination's
  /// dtype (a CUDA copy from the host converts on the CPU first: native/cuda/Copy.cu).
  int64_t bytes = 0;
  /// Short name of the rule that matched ("item", "nonzero", "bool-index", "blocking copy", ...).
  const char *rule = nullptr;
};

/// Classifies one operator call from a start callback that asked for its inputs. `top_level`:
/// the call is not made from inside another operator. Only such a call is a transfer: operators
/// convert internally with `to(options)` (log_softmax, sum, ...) on the tensor's own device.
OpClass classifyOp(const at::RecordFunction &fn, bool top_level);

/// An operator call: a FUNCTION-scope record that is not the autograd engine's own
/// ("autograd::engine::evaluate_function: MulBackward0", which libtorch 1.13 records in that scope
/// around each backward node: the operators a node runs are calls of their own).
inline bool isOperator(const at::RecordFunction &fn) {
  return fn.scope() == at::RecordScope::FUNCTION && std::strncmp(fn.name(), "autograd::", 10) != 0;
}

/// The user-scope RecordFunction name that stands for an explicit device synchronisation
/// (torch::cuda::synchronize(), a stream or event synchronize), which the dispatcher never sees:
/// the CPU probe records it where the CUDA program would synchronise, `torchlint trace` where it
/// intercepts the call.
constexpr const char *kExplicitSyncScope = "torchlint::explicit_sync";

} // namespace probe

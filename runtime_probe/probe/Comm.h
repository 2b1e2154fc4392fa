// A single-process stand-in for a gradient all-reduce, for the cases of the distributed checks
// (torch-ddp-no-sync, torch-allreduce-per-parameter). The libtorch the probe builds against here
// (Debian 1.13) ships c10d::ProcessGroupGloo's headers without gloo's own, so a real process group
// cannot be created; this does locally what one rank of an all-reduce does (copy into a
// communication buffer, reduce, copy back, world size 1). It measures the per-call overhead
// and memory traffic, NOT network latency or bandwidth: on N GPUs the real costs are larger.
#pragma once
#include "probe/Probe.h"

namespace probe {

inline void allreduce_mean(torch::Tensor &t, int64_t world_size = 1) {
  torch::Tensor buffer = t.clone(); // the communication buffer
  buffer.div_(world_size);          // the reduction (identity for one rank)
  t.copy_(buffer);
}

} // namespace probe

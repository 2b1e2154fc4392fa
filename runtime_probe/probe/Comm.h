// A single-process stand-in for a c10d process group, for the cases of the distributed checks
// (torch-ddp-no-sync, torch-allreduce-per-parameter). The libtorch the probe builds against here
// (Debian 1.13) ships c10d::ProcessGroupGloo's headers without gloo's own, so no real backend can
// be created; LocalProcessGroup is a c10d::ProcessGroup (rank 0 of 1) whose all-reduces do locally
// what one rank does (copy into a communication buffer, reduce, copy back). The cases call it
// through c10::intrusive_ptr<c10d::ProcessGroup>, exactly as code with a real process group does,
// so torchlint sees c10d's allreduce. It measures the per-call overhead and memory traffic, NOT
// network latency or bandwidth: on N GPUs the real costs are larger.
#pragma once
#include "probe/Probe.h"

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <chrono>

namespace probe {

/// The handle of a collective that has already completed.
class DoneWork : public c10d::Work {
public:
  bool isCompleted() override { return true; }
  bool wait(std::chrono::milliseconds /*timeout*/) override { return true; }
};

class LocalProcessGroup : public c10d::ProcessGroup {
public:
  LocalProcessGroup() : c10d::ProcessGroup(/*rank=*/0, /*size=*/1) {}
  const std::string getBackendName() const override { return "probe-local"; }

  /// Each tensor: copied to a buffer, averaged over the ranks (one here), copied back.
  c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor> &tensors,
                                           const c10d::AllreduceOptions & /*opts*/) override {
    for (at::Tensor &t : tensors) {
      at::Tensor buffer = t.clone();
      buffer.div_(getSize());
      t.copy_(buffer);
    }
    return c10::make_intrusive<DoneWork>();
  }
  /// All tensors flattened into one buffer, averaged, copied back.
  c10::intrusive_ptr<c10d::Work> allreduce_coalesced(std::vector<at::Tensor> &tensors,
                                                     const c10d::AllreduceCoalescedOptions & /*opts*/) override {
    std::vector<at::Tensor> flat;
    for (const at::Tensor &t : tensors)
      flat.push_back(t.reshape({-1}));
    at::Tensor buffer = at::cat(flat);
    buffer.div_(getSize());
    int64_t offset = 0;
    for (at::Tensor &t : tensors) {
      t.copy_(buffer.slice(0, offset, offset + t.numel()).view_as(t));
      offset += t.numel();
    }
    return c10::make_intrusive<DoneWork>();
  }
};

inline c10::intrusive_ptr<c10d::ProcessGroup> localProcessGroup() { return c10::make_intrusive<LocalProcessGroup>(); }

} // namespace probe

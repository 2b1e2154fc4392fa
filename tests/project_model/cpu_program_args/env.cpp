#include "env.h"

// Env::step gets host tensors from the CUDA program (`.to(torch::kCPU)`) and tensors of unknown
// device from a rollout that only the CPU-only program runs: a host read either way.
float CartEnv::step(const at::Tensor &action) { return action.item<float>(); }

// Monitor::observe also gets the CUDA program's unknown tensors: a sync per step there.
float PrintMonitor::observe(const at::Tensor &value) { return value.item<float>(); }

#pragma once
#include "torch_mini.h"

// Defined in the header: every file that includes it compiles its own copy.
inline float log_metrics(const at::Tensor &loss) {
  return loss.item<float>(); // on every step through train.cpp's loop: one finding, not one per includer
}

void enable_cudnn_benchmark(); // backend.cpp

// Only the trainer calls it: a file that includes this header without calling it does not call
// into backend.cpp.
inline void init_backend() { enable_cudnn_benchmark(); }

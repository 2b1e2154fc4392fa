// A project header: its findings must be reported with and without the PCH.
#pragma once
#include <torch/torch.h>

inline float sumLosses(const std::vector<torch::Tensor> &losses) {
  float s = 0;
  for (const auto &l : losses)
    s += l.item<float>();
  return s;
}

namespace proj {
inline double readOnce(const torch::Tensor &t) { return t.item<double>(); }
} // namespace proj

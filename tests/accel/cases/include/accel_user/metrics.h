// A project header reached with #include <...> through -I (not a system header): the PCH must
// stop before it so its declarations are analysed in the TU.
#pragma once
#include <torch/torch.h>

inline float meanOf(const std::vector<torch::Tensor> &xs) {
  float m = 0;
  for (const auto &x : xs)
    m += x.mean().item<float>();
  return m / xs.size();
}

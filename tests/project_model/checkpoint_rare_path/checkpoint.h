#pragma once
#include "torch_mini.h"

// Saves the weights (to host memory first), keeps host copies of a list of tensors, and logs the
// loss.
class Checkpoint {
public:
  void save(const at::Tensor &weights);
  void keep(const at::Tensor *parts, int n);
  void stash(int i, const at::Tensor &part);
  void log(const at::Tensor &loss);

private:
  at::Tensor last_;
  at::Tensor kept_[8];
  float loss_ = 0;
};

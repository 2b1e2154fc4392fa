#pragma once
#include "torch_mini.h"

// Saves the weights (to host memory first) and logs the loss.
class Checkpoint {
public:
  void save(const at::Tensor &weights);
  void log(const at::Tensor &loss);

private:
  at::Tensor last_;
  float loss_ = 0;
};

#include "support.h"

ValueSupport::ValueSupport(const at::Tensor &logits, float lo, float hi) : logits(logits) {
  // Every call passes literals (train.cpp): the same support rebuilt and uploaded per step.
  atoms = torch::tensor({lo, hi}, at::TensorOptions(logits.device()));
}

Scaled::Scaled(const at::Tensor &x, float scale) {
  // One call passes the learning rate read at run time: not a constant.
  factor = torch::tensor({scale, scale}, at::TensorOptions(x.device()));
}

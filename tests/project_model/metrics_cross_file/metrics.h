#pragma once
#include "torch_mini.h"

// Running statistics of the training loss, kept by the trainer.
class Metrics {
public:
  void update(const at::Tensor &loss);
  float mean() const;

private:
  float total_ = 0;
  int count_ = 0;
};

#include "metrics.h"

void Metrics::update(const at::Tensor &loss) {
  total_ += loss.item<float>(); // synchronises on every step: found through train.cpp's loop
  ++count_;
}

float Metrics::mean() const { return count_ ? total_ / count_ : 0.f; }

#include "env.h"

// The reward lives with the state the simulator is stepped with; squeeze_ reshapes it in place
// and keeps it there.
Observation LineSim::step(const at::Tensor &state) const {
  Observation out;
  out.reward = state.sum();
  out.reward.squeeze_(0);
  return out;
}

Bounds::Bounds(at::Tensor low, at::Tensor high) : low_(low), high_(high) {}
at::Tensor Bounds::low() const { return low_; }

Scale::Scale(at::Tensor value) : value_(value) {}
at::Tensor Scale::value() const { return value_; }

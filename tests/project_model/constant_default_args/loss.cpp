#include "loss.h"

namespace photo {

static at::Tensor window(int width, const at::TensorOptions &opts) {
  at::Tensor xs = torch::arange(width, opts);
  return xs / 2.0;
}

at::Tensor similarity(const at::Tensor &a, const at::Tensor &b, int width) {
  at::Tensor w = window(width, at::TensorOptions(a.device()));
  return ((a - b) * w).mean();
}

at::Tensor blur(const at::Tensor &a, int width) {
  at::Tensor k = torch::arange(width, at::TensorOptions(a.device()));
  return (a * k).sum();
}

} // namespace photo

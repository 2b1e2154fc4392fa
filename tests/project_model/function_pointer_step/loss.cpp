#include "loss.h"

static float clip_bound = 1.f;

static at::Tensor project_exact(const at::Tensor &target) {
  clip_bound = target.sum().item<float>(); // synchronises on every step: reached through the pointer below
  return target / 2.0;
}

static at::Tensor project_fast(const at::Tensor &target) { return target / 2.0; }

at::Tensor target_loss(const at::Tensor &pred, const at::Tensor &target, bool exact) {
  // The call goes through a function pointer chosen at run time: either function may run.
  auto project = exact ? project_exact : project_fast;
  return (pred - project(target)).mean();
}

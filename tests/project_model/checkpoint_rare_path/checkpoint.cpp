#include "checkpoint.h"

void Checkpoint::save(const at::Tensor &weights) {
  last_ = weights.cpu(); // once every 500 steps (train.cpp): the advice itself, nothing to say
}

void Checkpoint::keep(const at::Tensor *parts, int n) {
  for (int i = 0; i < n; ++i)
    kept_[i] = parts[i].cpu(); // n copies every 100 steps (train.cpp): a remark, not a warning
  for (int i = 0; i < n; ++i)
    stash(i, parts[i]);
}

void Checkpoint::stash(int i, const at::Tensor &part) {
  kept_[i] = part.cpu(); // also called in keep()'s loop: n copies every 100 steps, a remark
}

void Checkpoint::log(const at::Tensor &loss) {
  loss_ = loss.item<float>(); // on every step (train.cpp): a warning
}

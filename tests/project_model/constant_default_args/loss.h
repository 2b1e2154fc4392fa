#pragma once
#include "torch_mini.h"

namespace photo {
// A structural-similarity loss whose smoothing window is sized by a default argument: every call
// in train.cpp leaves it to its default, so the window is the same tensor on every step.
at::Tensor similarity(const at::Tensor &a, const at::Tensor &b, int width = 11);
// A blur whose width one call gives at run time: the window it builds is not a constant.
at::Tensor blur(const at::Tensor &a, int width = 5);
} // namespace photo

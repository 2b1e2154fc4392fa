#pragma once
#include "torch_mini.h"

// The target of a distributional loss: projected exactly (slow) or approximately.
at::Tensor target_loss(const at::Tensor &pred, const at::Tensor &target, bool exact);

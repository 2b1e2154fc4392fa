// A project header that defines a macro before libtorch: the walk stops there, no PCH.
#pragma once
#define ACCEL_CASES_SCALE 2
#include <torch/torch.h>

inline float scaled(const torch::Tensor &t) { return ACCEL_CASES_SCALE * t.item<float>(); }

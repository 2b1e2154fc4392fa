// A project header that defines a macro before libtorch: a name libtorch never looks at, so the PCH is exact.
#pragma once
#define ACCEL_CASES_SCALE 2
#include <torch/torch.h>

inline float scaled(const torch::Tensor &t) { return ACCEL_CASES_SCALE * t.item<float>(); }

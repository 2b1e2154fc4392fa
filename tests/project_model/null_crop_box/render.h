#pragma once
#include "torch_mini.h"

struct Box {
  float lo = 0, hi = 1;
};

// Renders points; crops to a box when one is given. The trainer never gives render() one (every
// call passes nullptr or takes the default); it gives preview() a box; clamp_render() replaces a
// null box with its own.
at::Tensor render(const at::Tensor &points, const Box *crop = nullptr);
at::Tensor preview(const at::Tensor &points, const Box *crop);
at::Tensor clamp_render(const at::Tensor &points, const Box *crop);

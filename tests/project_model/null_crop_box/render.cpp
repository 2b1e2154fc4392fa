#include "render.h"

static Box default_box;

at::Tensor render(const at::Tensor &points, const Box *crop) {
  at::Tensor out = points * 2;
  if (crop != nullptr) {
    // Never runs in this project: every call passes null. Quiet.
    float lo = points.sum().item<float>();
    out = out * lo;
  }
  return out;
}

at::Tensor preview(const at::Tensor &points, const Box *crop) {
  at::Tensor out = points * 3;
  if (crop) {
    // The trainer passes a box: reported.
    float lo = points.sum().item<float>();
    out = out * lo;
  }
  return out;
}

at::Tensor clamp_render(const at::Tensor &points, const Box *crop) {
  if (!crop)
    crop = &default_box; // the parameter is replaced: the branch below always runs
  at::Tensor out = points * 4;
  if (crop != nullptr) {
    float lo = points.sum().item<float>();
    out = out * lo;
  }
  return out;
}

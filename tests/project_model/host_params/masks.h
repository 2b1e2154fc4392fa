#pragma once
#include "torch_mini.h"

// Mask targets cropped to proposal boxes (masks.cpp), called from the loss in train.cpp. Whether a
// read of a box parameter waits for the GPU depends on what each caller passes.
struct Masks {
  int width(const at::Tensor &box);  // every caller passes a row of a tensor copied to the host
  int height(const at::Tensor &box); // one caller passes a GPU row
  int left(at::Tensor box);          // by value, host rows only, but reassigned inside
  int top(at::Tensor box);           // by value, host rows only
  float score(const at::Tensor &s);  // never called in the project
};

#pragma once
#include "torch_mini.h"

// Copies a sample to the host to write it out (an image file in the real program).
float save_sample(const at::Tensor &t);
// Copies a row to the host to compare it (runs on every step in train.cpp).
float check_row(const at::Tensor &t);

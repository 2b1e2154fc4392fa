#pragma once
#include "torch_mini.h"

// A renderer that is not a torch::nn::Module: its forward() is an ordinary method, called from
// the training loop in train.cpp. This file never names CUDA; main() picks the device.
struct Renderer {
  at::Tensor forward(const at::Tensor &rays);
};

#pragma once
#include "torch_mini.h"

// The network: its convolution is built in model.cpp, not where main() is.
struct Net : torch::nn::Module {
  Net();
  at::Tensor forward(const at::Tensor &x);
  torch::nn::Conv2d conv{nullptr};
};

void train(Net &net, at::Device device, int steps);

#pragma once
#include "torch_mini.h"

// The network of the trainer: TORCH_MODULE(Net) holds a NetImpl, whose constructor (with the
// convolution) and forward() are in net.cpp. main() only ever constructs the holder, Net(16):
// libtorch's ModuleHolder template calls NetImpl's constructor, not the user's code.
struct NetImpl : torch::nn::Module {
  explicit NetImpl(long channels);
  at::Tensor forward(const at::Tensor &x);
  torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(Net);

// A probe network that the second program declares but never builds (probe.cpp).
struct ProbeImpl : torch::nn::Module {
  ProbeImpl();
  at::Tensor forward(const at::Tensor &x);
  torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(Probe);

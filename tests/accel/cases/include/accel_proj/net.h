// The project's own header, found through -I and included with <...> before libtorch.
#pragma once
#include <torch/torch.h>

struct ProjNet : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  ProjNet() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};


#pragma once
#include "torch_mini.h"

// NetImpl's constructor (with the convolution) is in net.cpp, its forward() here: a program reaches
// net.cpp only by building a NetImpl, which each program below does another way.
struct NetImpl : torch::nn::Module {
  explicit NetImpl(long channels);
  at::Tensor forward(const at::Tensor &x) { return torch::relu(conv->forward(x)); }
  torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(Net);

// HeadImpl's constructor is here, its forward() (a functional convolution) in head.cpp: a program
// reaches head.cpp only by calling the module, `head(x)`.
struct HeadImpl : torch::nn::Module {
  HeadImpl() { weight = register_parameter("weight", torch::rand({4, 3, 3, 3})); }
  at::Tensor forward(const at::Tensor &x);
  at::Tensor weight;
};
TORCH_MODULE(Head);


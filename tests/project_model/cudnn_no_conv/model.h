#pragma once
#include "torch_mini.h"

// A network without a convolution (a multilayer perceptron), trained on CUDA in trainer.cpp.
struct Mlp : torch::nn::Module {
  Mlp();
  at::Tensor forward(const at::Tensor &x);
  std::shared_ptr<torch::nn::LinearImpl> fc;
};

void train(Mlp &net, at::Device device, int steps);

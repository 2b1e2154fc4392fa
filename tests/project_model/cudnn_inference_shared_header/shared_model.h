// A model header shared by a training program and an inference program: the class carries its own
// training method, fit(), which only the training program calls.
#pragma once
#include "torch_mini.h"

struct Net : torch::nn::Module {
  torch::nn::Conv2d conv{nullptr};
  Net() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 4))); }
  at::Tensor forward(const at::Tensor &x) { return conv->forward(x).mean(); }
  void fit(at::Device device, int steps) {
    torch::optim::SGD opt(parameters(), torch::optim::SGDOptions(0.01));
    for (int step = 0; step < steps; ++step) {
      opt.zero_grad();
      at::Tensor loss = forward(torch::rand({8, 1, 64, 64}, at::TensorOptions(device)));
      loss.backward();
      opt.step();
    }
  }
  at::Tensor infer(const at::Tensor &x) {
    torch::NoGradGuard no_grad;
    return forward(x);
  }
};

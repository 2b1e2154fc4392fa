#pragma once
#include "torch_mini.h"

struct QNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

// A Q-learning trainer handed its device by main(): it never names CUDA itself.
class Trainer {
public:
  Trainer(QNet *net, torch::optim::SGD *opt, c10::DeviceType device);
  void train_step(long n);

private:
  QNet *net_;
  torch::optim::SGD *opt_;
  c10::DeviceType device_;
};

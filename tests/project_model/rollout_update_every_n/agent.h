#pragma once
#include "torch_mini.h"

// A PPO-style agent: the policy acts on every environment step; update() trains on the rollout.
struct Policy : torch::nn::Module {
  at::Tensor forward(const at::Tensor &obs);
};

void update(Policy &policy, torch::optim::SGD &opt, const at::Tensor &obs);

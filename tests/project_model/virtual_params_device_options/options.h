#pragma once
#include "torch_mini.h"

// Trainer options with chained setters, the way reinforcement-learning libraries write them: a
// default in the class, a setter per option.
struct TrainerOptions {
  TrainerOptions &env_device_(const torch::Device &value) {
    env_device = value;
    return *this;
  }
  TrainerOptions &net_device_(const torch::Device &value) {
    net_device = value;
    return *this;
  }
  torch::Device env_device = torch::kCPU;
  torch::Device net_device = torch::kCPU;
};

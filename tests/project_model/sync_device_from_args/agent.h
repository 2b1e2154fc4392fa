#pragma once
#include "torch_mini.h"

struct QNet : torch::nn::Module {
  QNet();
  at::Tensor forward(const at::Tensor &x);
  std::shared_ptr<torch::nn::LinearImpl> fc;
};

// An agent library: it never names a device; the program that drives it decides where it runs.
class Agent {
public:
  explicit Agent(QNet &net) : net_(net) {}
  // The greedy action for one observation, on every environment step.
  int act(const at::Tensor &obs);
  // The TD loss of a batch.
  at::Tensor loss(const at::Tensor &obs, const at::Tensor &target);

private:
  QNet &net_;
};

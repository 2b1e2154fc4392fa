#pragma once
#include "torch_mini.h"

// A graph network whose forward() pools per graph of a batch when given the batch vector, and sums
// one graph otherwise; the trainer in train.cpp only ever gives it one graph. Its readout() is
// given a batch vector, and its shifted() is given none but tests it the other way round.
struct GraphNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &nodes, torch::optional<at::Tensor> batch = torch::nullopt);
  at::Tensor readout(const at::Tensor &nodes, c10::optional<at::Tensor> batch);
  at::Tensor shifted(const at::Tensor &nodes, c10::optional<at::Tensor> batch);
  at::Tensor weight;
};

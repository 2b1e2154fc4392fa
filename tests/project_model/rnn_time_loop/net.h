#pragma once
#include "torch_mini.h"

// A recurrent network: forward() unrolls a cell over the time steps.
struct Cell : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

struct Net : torch::nn::Module {
  Cell cell;
  at::Tensor forward(const at::Tensor &x);
  at::Tensor unroll(const at::Tensor &x);
};

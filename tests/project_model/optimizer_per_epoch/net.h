#include "torch_mini.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};
void fit(Net &net, int epochs);

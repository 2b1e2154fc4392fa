#pragma once
#include "torch_mini.h"

// The classes are declared here; their forward() bodies are in net.cpp and critic.cpp, and the
// evaluation code in main.cpp sees none of them.
struct Net : torch::nn::Module {
  Net();
  at::Tensor forward(const at::Tensor &x);
  std::shared_ptr<torch::nn::LinearImpl> fc;
};

// Its forward() takes the gradient of its output with respect to its input (a critic with a
// gradient penalty): it needs gradient recording even when it only evaluates.
struct Critic : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

// Defined in no file of the project (a library): it may need gradients.
float scoreOutputs(const at::Tensor &out);

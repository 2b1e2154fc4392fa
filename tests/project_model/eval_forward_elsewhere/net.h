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

// A random engine's state: numbers only.
struct Rng {
  unsigned long long state[4];
  int calls;
};

// Defined in no file of the project either, but handed no tensor (numbers and a random engine): it
// cannot need gradients for the caller's model.
int sampleIndex(const float *weights, int n, Rng &rng);

// Defined in no file, and handed the model: it may train it.
int exploreWith(Net &net, Rng &rng);

#pragma once
#include "torch_mini.h"

// Two models whose forward() bodies the training file does not see. Classifier::forward is in
// classifier.cpp, a file of the database. Potential::forward (an interatomic potential whose
// forward differentiates the energy with respect to the positions to give forces) is defined in
// no file of the database (its CUDA sources are left out of it): it may need gradients.
struct Classifier : torch::nn::Module {
  Classifier();
  at::Tensor forward(const at::Tensor &x);
  std::shared_ptr<torch::nn::LinearImpl> fc;
};

struct Potential : torch::nn::Module {
  at::Tensor forward(const at::Tensor &positions);
};

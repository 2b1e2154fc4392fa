#pragma once
#include "torch_mini.h"

// Modules that keep tensors as registered buffers and parameters, read by the trainer each step.
class Constraint : public torch::nn::Module {
public:
  ~Constraint() override;
};

class Box : public Constraint {
public:
  explicit Box(at::Tensor low);
  at::Tensor low() const;

private:
  at::Tensor low_;
};

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

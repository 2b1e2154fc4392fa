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

class Scale : public torch::nn::Module {
public:
  explicit Scale(at::Tensor value);
  at::Tensor value() const;

private:
  at::Tensor value_;
};

class Holder : public torch::nn::Module {
public:
  Holder();
  at::Tensor inner() const;

private:
  std::shared_ptr<Scale> scale_;
};

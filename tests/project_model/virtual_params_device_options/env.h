#pragma once
#include "torch_mini.h"

// The interfaces the trainer steps through; each implementation is in its own file.
class Env {
public:
  virtual ~Env();
  virtual float step(const at::Tensor &action) = 0;
};

class Critic {
public:
  virtual ~Critic();
  virtual float score(const at::Tensor &value) = 0;
};

class CartEnv : public Env {
public:
  float step(const at::Tensor &action) override;
};

class ValueCritic : public Critic {
public:
  float score(const at::Tensor &value) override;
};

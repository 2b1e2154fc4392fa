#pragma once
#include "torch_mini.h"

// The interface every agent of the game implements; the runner only knows this.
class Agent {
public:
  virtual ~Agent();
  virtual at::Tensor act(const at::Tensor &state) = 0;
  virtual float learn(const at::Tensor &state, const at::Tensor &reward) = 0;
};

Agent *make_agent();

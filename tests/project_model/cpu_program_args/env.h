#pragma once
#include "torch_mini.h"

// An environment and a monitor that two programs of the project share.
class Env {
public:
  virtual ~Env();
  virtual float step(const at::Tensor &action) = 0;
};

class Monitor {
public:
  virtual ~Monitor();
  virtual float observe(const at::Tensor &value) = 0;
};

class Policy {
public:
  virtual ~Policy();
  virtual at::Tensor sample() = 0; // defined nowhere in the project: its device is not known
};

struct PolicyNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

class CartEnv : public Env {
public:
  float step(const at::Tensor &action) override;
};

class PrintMonitor : public Monitor {
public:
  float observe(const at::Tensor &value) override;
};

void rollout(PolicyNet &net, Policy &policy, Env &env, Monitor &monitor);

#include "env.h"

// Every call of Env::step in the project passes a tensor moved to the options' env_device, which
// is the CPU by default and wherever a program sets it: a host read.
float CartEnv::step(const at::Tensor &action) { return action.item<float>() * 0.5f; }

// Critic::score is handed tensors on net_device, which the program sets to CUDA: a sync per step.
float ValueCritic::score(const at::Tensor &value) { return value.item<float>(); }

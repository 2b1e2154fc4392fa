#include "env.h"

void gpu_train(PolicyNet &net, torch::optim::SGD &opt, Env &env, Monitor &monitor);

// The CUDA program: it trains on the GPU and steps the same environment.
int main() {
  PolicyNet net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  CartEnv env;
  PrintMonitor monitor;
  gpu_train(net, *opt, env, monitor);
}

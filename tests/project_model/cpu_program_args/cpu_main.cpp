#include "env.h"

Policy *make_policy();

// A program that never uses CUDA: every tensor of it is on the host.
int main() {
  PolicyNet net;
  CartEnv env;
  PrintMonitor monitor;
  rollout(net, *make_policy(), env, monitor);
}

#include "env.h"

void rollout(PolicyNet &net, Policy &policy, Env &env, Monitor &monitor) {
  at::Tensor state = torch::zeros({4});
  float total = 0;
  for (int t = 0; t < 500; ++t) {
    at::Tensor value = net.forward(state);
    at::Tensor action = policy.sample();
    total += env.step(action);
    total += monitor.observe(value);
  }
  std::cout << total;
}

#include "agent.h"

int main() {
  Policy policy;
  torch::optim::SGD opt(policy.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor obs = torch::randn({1, 4}, at::TensorOptions(at::kCUDA));
  // The rollout: one forward per environment step, an update every 2048 steps. Its iterations are
  // the per-step work (an action read with item() each time), not epochs.
  for (int t = 1; t <= 1000000; ++t) {
    float action = policy.forward(obs).item<float>();
    obs = torch::randn({1, 4}, at::TensorOptions(at::kCUDA)) * action;
    if (t % 2048 == 0)
      update(policy, opt, obs);
  }
  // An epoch loop: it trains on every iteration (update() is unconditional), and reads a value once
  // per epoch: quiet with the project model; main.cpp alone cannot tell that update() trains.
  for (int epoch = 0; epoch < 10; ++epoch) {
    update(policy, opt, obs);
    float check = policy.forward(obs).sum().item<float>();
    (void)check;
  }
}

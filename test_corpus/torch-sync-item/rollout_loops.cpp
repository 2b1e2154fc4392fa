// torch-sync-item: a rollout loop that trains only every few iterations (`if (t % n_steps == 0)
// update(...)`, `if (memory.size() >= batch) learn(...)`) runs its body once per environment step,
// more often than the training pass: it is not an epoch loop, and a sync in it is reported. An
// epoch loop that trains on every iteration and evaluates every few stays an epoch loop.
#include <torch/torch.h>
#include <cstdio>
#include <deque>

struct Policy : torch::nn::Module {
  Policy() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

static void update(Policy &policy, torch::optim::Adam &opt, const torch::Tensor &obs) {
  for (int epoch = 0; epoch < 4; ++epoch) {
    opt.zero_grad();
    policy.forward(obs).pow(2).mean().backward();
    opt.step();
  }
}

static void train_epoch(Policy &policy, torch::optim::Adam &opt, const torch::Tensor &x) {
  for (int b = 0; b < 100; ++b) {
    opt.zero_grad();
    policy.forward(x).pow(2).mean().backward();
    opt.step();
  }
}

int main() {
  torch::Device dev(torch::kCUDA);
  auto policy = std::make_shared<Policy>();
  policy->to(dev);
  torch::optim::Adam opt(policy->parameters());
  auto obs = torch::randn({1, 4}, dev);

  // PPO-style: an update every 2048 environment steps.
  for (int t = 1; t <= 1000000; ++t) {
    int a = 0;
    {
      torch::NoGradGuard no_grad;
      a = policy->forward(obs).argmax(1).item<int>();
      // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: (in the loop at line 39 of main()) [torch-sync-item]
    }
    obs = torch::randn({1, 4}, dev) * a;
    if (t % 2048 == 0)
      update(*policy, opt, obs);
  }

  // DQN-style: learn once the replay memory holds a batch.
  std::deque<torch::Tensor> memory;
  for (int t = 0; t < 100000; ++t) {
    float q = 0;
    {
      torch::NoGradGuard no_grad;
      q = policy->forward(obs).max().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: (in the loop at line 53 of main()) [torch-sync-item]
    }
    memory.push_back(obs * q);
    if (memory.size() >= 64)
      update(*policy, opt, torch::cat({memory.front(), memory.back()}));
  }

  // An epoch loop: trains on every iteration, evaluates every 10 epochs: per epoch, quiet.
  for (int epoch = 0; epoch < 100; ++epoch) {
    train_epoch(*policy, opt, obs);
    if (epoch % 10 == 0) {
      torch::NoGradGuard no_grad;
      std::printf("%f\n", policy->forward(obs).sum().item<float>());
    }
    std::printf("%f\n", obs.sum().item<float>());
  }
  return 0;
}

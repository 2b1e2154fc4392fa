// torch-autograd-history: a rollout buffer emptied every few steps, whose history nothing reads
// (the update only uses its detached concatenation): each environment step's graph is kept until
// the buffer is emptied, for nothing. A module's own method computes from its parameters too.
#include <torch/torch.h>
#include <vector>

struct Policy : torch::nn::Module {
  Policy() {
    mu = register_module("mu", torch::nn::Linear(4, 2));
    log_std = register_parameter("log_std", torch::zeros({2}));
  }
  torch::Tensor forward(torch::Tensor obs) { return mu(obs); }
  torch::Tensor log_prob(torch::Tensor action, torch::Tensor mean) {
    return -((action - mean).pow(2) / (2 * log_std.exp().pow(2))).sum(-1);
  }
  torch::nn::Linear mu{nullptr};
  torch::Tensor log_std;
};

void update(Policy &policy, torch::optim::Adam &opt, const torch::Tensor &states, const torch::Tensor &old_log_probs) {
  opt.zero_grad();
  auto mean = policy.forward(states);
  auto loss = (policy.log_prob(mean.detach(), mean) - old_log_probs).pow(2).mean();
  loss.backward();
  opt.step();
}

int main() {
  auto policy = std::make_shared<Policy>();
  torch::optim::Adam opt(policy->parameters(), torch::optim::AdamOptions(3e-4));
  std::vector<torch::Tensor> states, means, log_probs;
  const int n_steps = 64;
  for (int t = 1; t <= 100000; ++t) {
    auto obs = torch::randn({1, 4});
    states.push_back(obs);
    auto mean = policy->forward(obs);
    auto action = mean + torch::randn({1, 2});
    means.push_back(mean);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'means' keeps the autograd graph of every step until it is emptied: 'mean' (the output of a module's forward()) requires grad, and every read of 'means' is detached, so the graphs are kept for nothing; store 'mean.detach()' (or run this part of the step under torch::NoGradGuard) [torch-autograd-history]
    log_probs.push_back(policy->log_prob(action, mean));
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'log_probs' keeps the autograd graph of every step until it is emptied: 'policy->log_prob(action, mean)' (computed by a module's method from its parameters) requires grad [torch-autograd-history]
    if (t % n_steps == 0) {
      auto old = torch::cat(log_probs).detach();
      auto m = torch::stack(means).detach();
      update(*policy, opt, torch::cat(states), old + 0 * m.sum());
      states.clear();
      means.clear();
      log_probs.clear();
    }
  }
  return 0;
}

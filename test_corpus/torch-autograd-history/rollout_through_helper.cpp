// torch-autograd-history: a rollout buffer of value estimates handed to a GAE helper. The helper
// only computes returns from its arguments (a free function that needs no gradients and names no
// global), and the caller reads those returns detached, as it reads the buffer itself: each
// environment step's forward graph is kept until the update for nothing. The bootstrap value
// pushed in the update branch, right before the buffer is emptied in that same block, keeps one
// graph only until then: not reported. Look-alikes: rollout_through_helper_ok.cpp.
#include <torch/torch.h>
#include <tuple>
#include <vector>

using Buffer = std::vector<torch::Tensor>;

struct ActorCriticImpl : torch::nn::Module {
  ActorCriticImpl() : body(register_module("body", torch::nn::Linear(4, 3))) {}
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor s) {
    auto out = body(s);
    return {out.slice(1, 0, 2), out.slice(1, 2, 3)};
  }
  torch::nn::Linear body;
};
TORCH_MODULE(ActorCritic);

Buffer gae(const Buffer &rewards, const Buffer &values, double gamma, double lambda) {
  Buffer out(rewards.size());
  torch::Tensor running = torch::zeros({1, 1});
  for (int64_t i = static_cast<int64_t>(rewards.size()) - 1; i >= 0; --i) {
    auto delta = rewards[i] + gamma * values[i + 1] - values[i];
    running = delta + gamma * lambda * running;
    out[i] = running + values[i];
  }
  return out;
}

int main() {
  ActorCritic ac;
  torch::optim::Adam opt(ac->parameters(), torch::optim::AdamOptions(1e-3));
  Buffer states, rewards, values, returns;
  const int n_steps = 128;
  for (int t = 1; t <= 100000; ++t) {
    auto s = torch::randn({1, 4});
    states.push_back(s);
    auto av = ac->forward(s);
    values.push_back(std::get<1>(av));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'values' keeps the autograd graph of every step until it is emptied: 'std::get<1>(av)' (the output of a module's forward()) requires grad, and every read of 'values' is detached (or goes through gae(), whose result is only read detached), so the graphs are kept for nothing; store 'std::get<1>(av).detach()' (or run this part of the step under torch::NoGradGuard) [torch-autograd-history]
    rewards.push_back(torch::rand({1, 1}));
    if (t % n_steps == 0) {
      values.push_back(std::get<1>(ac->forward(s)));
      returns = gae(rewards, values, 0.99, 0.95);
      auto target = torch::cat(returns).detach();
      auto baseline = torch::cat(values).detach();
      auto advantage = target - baseline.slice(0, 0, n_steps);
      opt.zero_grad();
      auto v = std::get<1>(ac->forward(torch::cat(states)));
      auto loss = (v - target).pow(2).mean() - 0.0 * advantage.mean();
      loss.backward();
      opt.step();
      states.clear();
      rewards.clear();
      values.clear();
      returns.clear();
    }
  }
}

// torch-autograd-history: an actor-critic module whose forward() returns a tuple (action mean,
// value). The rollout stores std::get<1>(out) of every environment step in a buffer that the
// update reads only detached: each element keeps its step's forward graph until the buffer is
// cleared. The element of a tuple that forward() returned is forward()'s output, as `net(x)` is.
// Look-alikes below: the same rollout under NoGradGuard, and a tuple that no module returned.
#include <torch/torch.h>
#include <tuple>
#include <vector>

struct ActorCriticImpl : torch::nn::Module {
  torch::nn::Linear mu{8, 2}, critic{8, 1};
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &s) { return {mu(s), critic(s)}; }
};
TORCH_MODULE(ActorCritic);

std::tuple<torch::Tensor, torch::Tensor> env_step(const torch::Tensor &action); // the simulator

void train(ActorCritic &ac, torch::optim::Adam &opt) {
  std::vector<torch::Tensor> values, rewards;
  torch::Tensor state = torch::zeros({1, 8});
  for (int t = 1; t <= 100000; ++t) {
    auto out = ac->forward(state);
    values.push_back(std::get<1>(out));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'values' keeps the autograd graph of every step until it is emptied: 'std::get<1>(out)' (the output of a module's forward()) requires grad, and every read of 'values' is detached [torch-autograd-history]
    auto next = env_step(std::get<0>(out).detach());
    rewards.push_back(std::get<1>(next)); // the simulator's tuple: no history
    state = std::get<0>(next);
    if (t % 128 == 0) {
      auto baseline = torch::cat(values).detach();
      auto ret = torch::cat(rewards).cumsum(0);
      auto loss = (std::get<1>(ac->forward(torch::zeros({128, 8}))).squeeze(1) - (ret - baseline.squeeze(1))).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      values.clear();
      rewards.clear();
    }
  }
}

void train_no_grad_rollout(ActorCritic &ac, torch::optim::Adam &opt) {
  std::vector<torch::Tensor> values;
  for (int t = 1; t <= 100000; ++t) {
    {
      torch::NoGradGuard no_grad;
      auto out = ac->forward(torch::zeros({1, 8}));
      values.push_back(std::get<1>(out)); // recorded without autograd: no history
    }
    if (t % 128 == 0) {
      auto loss = (std::get<1>(ac->forward(torch::zeros({128, 8}))) - torch::cat(values)).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      values.clear();
    }
  }
}

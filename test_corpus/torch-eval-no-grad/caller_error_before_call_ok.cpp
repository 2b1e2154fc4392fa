// The look-alike of caller_error_in_other_branch.cpp: the episode loop declares a scope from the
// missing library right before the agent's calls, and the declaration has a compiler error (the
// value typed through the synthesised declarations fits both constructors of Scope). It could be
// a guard that turns gradient recording off for the calls after it: neither check reports.
// TORCHLINT-CHECKS: -*,torch-eval-no-grad,torch-frozen-net-grad
// TORCHLINT-MISSING-HEADERS: boardgames/rng.h
#include <torch/torch.h>
#include "boardgames/rng.h"
#include <random>
#include <vector>

struct Outcome {
  int move;
  double prob;
};
Outcome pick(const std::vector<Outcome> &outcomes, double u);
Outcome pick(const std::vector<Outcome> &outcomes, boardgames::RngRef rng);
struct Scope {
  explicit Scope(bool record_gradients);
  explicit Scope(boardgames::Mode mode);
};

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() { fc = register_module("fc", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Policy);

class Player {
public:
  Player() : opt_(online_->parameters(), torch::optim::SGDOptions(0.01)) {}
  int act(const torch::Tensor &obs) {
    online_->eval();
    torch::Tensor q = online_->forward(obs).detach();
    return q.argmax(1).item<int>();
  }
  void learn(const torch::Tensor &obs, const torch::Tensor &next, const torch::Tensor &reward) {
    online_->train();
    torch::Tensor q = online_->forward(obs).amax(1);
    torch::Tensor target = reward + 0.99 * frozen_->forward(next).detach().amax(1);
    opt_.zero_grad();
    torch::mse_loss(q, target).backward();
    opt_.step();
  }

private:
  Policy online_, frozen_;
  torch::optim::SGD opt_;
};

double play(std::vector<Player *> &players, std::mt19937 &rng, int episodes) {
  double total = 0;
  std::vector<Outcome> chance{{0, 0.5}, {1, 0.5}};
  for (int e = 0; e < episodes; ++e) {
    torch::Tensor obs = torch::randn({1, 16});
    for (int t = 0; t < 50; ++t) {
      if (t % 5 == 0) {
        total += chance[t % 2].prob;
        continue;
      }
      Scope inference(boardgames::recording(false)); // ambiguous: a compiler error
      players[t % 2]->act(obs);
      players[t % 2]->learn(obs, torch::randn({1, 16}), torch::ones({1}));
    }
  }
  return total;
}

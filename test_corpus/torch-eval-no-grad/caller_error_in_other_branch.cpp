// torch-eval-no-grad and torch-frozen-net-grad say that no caller holds a guard; a caller with a
// compiler error only hides one where the error comes before the call in a block around it (a
// guard could be declared there). Here the episode loop's chance branch has an ambiguous call
// (a value typed through the missing library's synthesised declarations fits both overloads of
// pick()): the branch closes before the agent's calls, so both findings stand (OpenSpiel's DQN
// lost them when synthesis made its chance-node sampling ambiguous). A guard-like declaration
// with errors before the calls silences them: caller_error_before_call_ok.cpp.
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
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: module evaluated after eval() with gradient recording on: forward() at line 35 saves every activation for a backward() that never comes; add `torch::NoGradGuard no_grad;` (or c10::InferenceMode) to the evaluation scope [torch-eval-no-grad]
    torch::Tensor q = online_->forward(obs).detach();
    return q.argmax(1).item<int>();
  }
  void learn(const torch::Tensor &obs, const torch::Tensor &next, const torch::Tensor &reward) {
    online_->train();
    torch::Tensor q = online_->forward(obs).amax(1);
    torch::Tensor target = reward + 0.99 * frozen_->forward(next).detach().amax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'frozen_' is a network whose parameters are in no optimizer, run in the training step with autograd on [torch-frozen-net-grad]
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
        total += pick(chance, boardgames::uniform(rng, 0.0, 1.0)).prob; // ambiguous: a compiler error
        continue;
      }
      players[t % 2]->act(obs);
      players[t % 2]->learn(obs, torch::randn({1, 16}), torch::ones({1}));
    }
  }
  return total;
}

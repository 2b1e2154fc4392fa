// torch-frozen-net-grad in a file with compiler errors elsewhere (issue 24): what the finding says
// is absent (an optimizer holding the network's parameters, a freeze, a guard in a caller) rests on
// the network's uses, the forward call and the functions that lead to it. An error in an unrelated
// function (here: a metrics logger calling into a library that is not installed; OpenSpiel's DQN
// met it in a framework header resting on absl) used to silence the check for the whole file.
// The target network's output is detached: backward() never reaches it, only the recording is
// wasted, and the message says so. (Errors that name the network or a caller: error_near_ok.cpp.)
// (Synthesised declarations are off here, so that the calls stay compiler errors.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: metrics/sink.h
#include <torch/torch.h>
#include "metrics/sink.h"
#include <vector>

struct MLPImpl : torch::nn::Module {
  MLPImpl(int in, int out) : fc(register_module("fc", torch::nn::Linear(in, out))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(MLP);

void publish(const std::vector<float> &returns) {
  metrics::Sink::global().write("returns", returns); // a compiler error: metrics is unknown
}

class Learner {
 public:
  Learner() : q_(8, 4), target_(8, 4), opt_(q_->parameters(), torch::optim::SGDOptions(0.01)) {}
  void learn(const torch::Tensor &obs, const torch::Tensor &next_obs, const torch::Tensor &reward) {
    q_->train();
    torch::Tensor q = q_->forward(obs).amax(1);
    torch::Tensor next_q = target_->forward(next_obs).detach().amax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'target_' is a network whose parameters are in no optimizer, run in the training step with autograd on: its output is detached, so backward() never reaches it, but its parameters require gradients, so autograd records its graph and saves its activations in forward for nothing; run it under torch::NoGradGuard (nothing recorded; the .detach() is then unneeded), or set requires_grad_(false) on its parameters once (`for (auto& p : target_->parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
    torch::Tensor loss = (q - (reward + 0.99 * next_q)).pow(2).mean();
    opt_.zero_grad();
    loss.backward();
    opt_.step();
  }

 private:
  MLP q_, target_;
  torch::optim::SGD opt_;
};

int main() {
  Learner learner;
  std::vector<float> returns;
  for (int step = 0; step < 1000; ++step) {
    learner.learn(torch::rand({32, 8}), torch::rand({32, 8}), torch::rand({32}));
    returns.push_back(0.f);
  }
  publish(returns);
}

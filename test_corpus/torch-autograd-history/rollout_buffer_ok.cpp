// torch-autograd-history look-alikes of a rollout buffer: emptied every few steps but its history
// is used (REINFORCE differentiates the stacked log-probabilities; a buffer handed to a function
// undetached may be), emptied on every step, or filled with detached values.
#include <torch/torch.h>
#include <vector>

struct Policy : torch::nn::Module {
  Policy() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor obs) { return fc(obs); }
  torch::Tensor log_prob(torch::Tensor obs) { return torch::log_softmax(fc(obs), -1).select(1, 0); }
  torch::nn::Linear fc{nullptr};
};

void consume(std::vector<torch::Tensor> &buffer, torch::optim::Adam &opt); // elsewhere: may backward

int main() {
  auto policy = std::make_shared<Policy>();
  torch::optim::Adam opt(policy->parameters(), torch::optim::AdamOptions(1e-3));
  std::vector<torch::Tensor> log_probs, kept, each_step, detached;
  for (int t = 1; t <= 10000; ++t) {
    auto obs = torch::randn({1, 4});
    log_probs.push_back(policy->log_prob(obs));
    kept.push_back(policy->forward(obs));
    each_step.push_back(policy->forward(obs));
    detached.push_back(policy->forward(obs).detach());
    each_step.clear();
    if (t % 32 == 0) {
      // REINFORCE: the episode's log-probabilities are differentiated.
      opt.zero_grad();
      auto loss = -torch::stack(log_probs).sum();
      loss.backward();
      opt.step();
      log_probs.clear();
      consume(kept, opt);
      kept.clear();
      auto d = torch::cat(detached);
      detached.clear();
      (void)d;
    }
  }
  return 0;
}

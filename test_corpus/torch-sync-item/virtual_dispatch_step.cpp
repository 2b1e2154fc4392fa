// torch-sync-item: agents stepped through their base class. The episode loop holds
// std::unique_ptr<Agent> and calls the virtual Agent::observe(); each agent learns in its
// override and reads its loss with item(), on the GPU, for every environment step. The loop
// dispatches to the override, so the override runs on every iteration: reported (per file, as
// a project of one file is, and with the project model alike). Look-alikes that stay quiet:
// virtual_dispatch_step_ok.cpp.
#include <torch/torch.h>
#include <memory>
#include <vector>

struct Agent {
  virtual ~Agent() = default;
  virtual float observe(const torch::Tensor &obs) = 0;
};

struct LearningAgent : Agent {
  LearningAgent() { q->to(torch::kCUDA); }
  float observe(const torch::Tensor &obs) override {
    auto loss = q->forward(obs.to(torch::kCUDA)).square().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    return loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in LearningAgent::observe(), called on every iteration of the loop in main() at line 48) [torch-sync-item]
  }
  torch::nn::Linear q{8, 4};
  torch::optim::SGD opt{q->parameters(), 0.1};
};

// A second level: the override of an override is reached through the first base too.
struct LoggingAgent : LearningAgent {
  float observe(const torch::Tensor &obs) override {
    float l = LearningAgent::observe(obs);
    last = q->weight.norm().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in LoggingAgent::observe(), called on every iteration of the loop in main() at line 48) [torch-sync-item]
    return l;
  }
  float last = 0;
};

int main() {
  std::vector<std::unique_ptr<Agent>> agents;
  agents.push_back(std::make_unique<LearningAgent>());
  agents.push_back(std::make_unique<LoggingAgent>());
  float total = 0;
  for (int t = 0; t < 100000; ++t) {
    auto obs = torch::randn({8});
    for (auto &a : agents)
      total += a->observe(obs);
  }
  return total > 0;
}

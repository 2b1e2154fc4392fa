// torch-frozen-net-grad: a DQN target network (parameters in no optimizer, refreshed by copying
// the policy network's weights) run in the training step with autograd on. Its input is a
// parameter of learn(), which the check does not follow: the message gives requires_grad_(false)
// (always right) and says when NoGradGuard is.
#include <torch/torch.h>

struct QNet : torch::nn::Module {
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  QNet() {
    fc1 = register_module("fc1", torch::nn::Linear(8, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 4));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
};

struct Agent {
  std::shared_ptr<QNet> policy = std::make_shared<QNet>();
  std::shared_ptr<QNet> target = std::make_shared<QNet>();
  torch::optim::Adam opt{policy->parameters(), torch::optim::AdamOptions(1e-3)};

  void sync_target() {
    torch::NoGradGuard no_grad;
    auto src = policy->parameters();
    auto dst = target->parameters();
    for (size_t i = 0; i < src.size(); ++i)
      dst[i].copy_(src[i]);
  }

  void learn(torch::Tensor states, torch::Tensor actions, torch::Tensor rewards, torch::Tensor next_states) {
    auto q = policy->forward(states).gather(1, actions.unsqueeze(1)).squeeze(1);
    auto next_q = std::get<0>(target->forward(next_states).max(1));
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'target' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; set requires_grad_(false) on its parameters once (`for (auto& p : target->parameters()) p.requires_grad_(false);`); torch::NoGradGuard around the call is right only if no gradient must flow through it to its input [torch-frozen-net-grad]
    auto expected = rewards + 0.99 * next_q;
    auto loss = torch::smooth_l1_loss(q, expected.detach());
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
};

int main() {
  Agent agent;
  for (int step = 0; step < 1000; ++step) {
    agent.learn(torch::randn({32, 8}), torch::randint(0, 4, {32}), torch::randn({32}), torch::randn({32, 8}));
    if (step % 100 == 0)
      agent.sync_target();
  }
  return 0;
}

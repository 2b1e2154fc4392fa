// torch-create-then-move: a random factory followed by a view (squeeze, unsqueeze, reshape) and then
// .to(device) draws on the CPU and copies, exactly like rand(...).to(device). Seen in an RL rollout
// loop (an unseen-2 project of the accuracy benchmark): exploratory actions drawn as
// `(rand({n, k}).squeeze(0).to(device) * 2) - 1`. Random: advice, no fix-it.
#include <torch/torch.h>
#include <random>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear actor(8, 2);
  actor->to(device);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coin(0.f, 1.f);
  torch::Tensor action;
  for (int step = 0; step < 10000; ++step) {
    auto obs = torch::randn({4, 8}, device);
    if (coin(rng) > 0.9f) {
      action = (torch::rand({4, 2}).squeeze(0).to(device) * 2) - 1;
      // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: torch::rand(...).to(...) creates the tensor on the CPU [torch-create-then-move]
    } else {
      action = actor->forward(obs);
    }
    auto noise = torch::randn({4, 2}).unsqueeze(0).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: torch::randn(...).to(...) creates the tensor on the CPU [torch-create-then-move]
    auto fine = torch::rand({4, 2}, device).squeeze(0); // drawn on the device: no finding
    auto plain = torch::rand({4, 2}).to(device) * 2; // found today: the positive control
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: torch::rand(...).to(...) creates the tensor on the CPU [torch-create-then-move]
    (action + noise + fine + plain).sum().backward();
  }
}

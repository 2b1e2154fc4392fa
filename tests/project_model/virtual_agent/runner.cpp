#include "agent.h"

int main() {
  Agent *agent = make_agent();
  at::Tensor state = torch::zeros({4}, at::TensorOptions(at::kCUDA));
  at::Tensor reward = torch::ones({1}, at::TensorOptions(at::kCUDA));
  float total = 0;
  for (int episode = 0; episode < 500; ++episode) {
    at::Tensor action = agent->act(state);
    total += agent->learn(state, reward);
  }
  std::cout << total;
}

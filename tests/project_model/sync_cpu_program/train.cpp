#include "agent.h"

// A CPU program: nothing in it, nor in the agent library it calls, puts a tensor on a GPU, so the
// item() in Agent::act() reads host memory and waits for nothing.
int main() {
  QNet net;
  Agent agent(net);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  int total = 0;
  for (int step = 0; step < 10000; ++step) {
    at::Tensor obs = torch::rand({1, 8});
    total += agent.act(obs);
    opt.zero_grad();
    at::Tensor l = agent.loss(torch::rand({32, 8}), torch::rand({32, 4}));
    l.backward();
    opt.step();
  }
  return total > 0 ? 0 : 1;
}

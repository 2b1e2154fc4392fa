#include "agent.h"

// The device comes from the command line ("cuda" on a GPU machine): the agent may run on CUDA,
// and the item() in Agent::act() then waits for the GPU on every environment step.
int main(int argc, char **argv) {
  at::Device device(std::string(argc > 1 ? argv[1] : "cpu"));
  QNet net;
  net.to(device);
  Agent agent(net);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  int total = 0;
  for (int step = 0; step < 10000; ++step) {
    at::Tensor obs = torch::rand({1, 8}, at::TensorOptions(device));
    total += agent.act(obs);
    opt.zero_grad();
    at::Tensor l = agent.loss(torch::rand({32, 8}, at::TensorOptions(device)), torch::rand({32, 4}, at::TensorOptions(device)));
    l.backward();
    opt.step();
  }
  return total > 0 ? 0 : 1;
}

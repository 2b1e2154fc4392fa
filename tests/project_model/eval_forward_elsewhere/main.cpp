#include "net.h"

float evaluate(Net &net) {
  net.eval();
  at::Tensor out = net.forward(torch::rand({4, 16}));
  return out.mean().item<float>();
}

float testCritic(Critic &critic) {
  at::Tensor out = critic.forward(torch::rand({4, 16}));
  return out.item<float>();
}

float validateWithLibrary(Net &net) {
  net.eval();
  at::Tensor out = net.forward(torch::rand({4, 16}));
  return scoreOutputs(out);
}

int main() {
  Net net;
  Critic critic;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    at::Tensor loss = net.forward(torch::rand({4, 16})).mean();
    loss.backward();
    opt.step();
  }
  float a = evaluate(net), b = testCritic(critic), c = validateWithLibrary(net);
  return a + b + c > 0 ? 0 : 1;
}

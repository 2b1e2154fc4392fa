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

const float weights[2] = {0.5f, 0.5f};

int greedyAction(Net &net, Rng &rng, bool explore) {
  if (explore)
    return sampleIndex(weights, 2, rng);
  net.eval();
  at::Tensor q = net.forward(torch::rand({1, 16}));
  return static_cast<int>(q.mean().item<float>());
}

int greedyOrExplore(Net &net, Rng &rng, bool explore) {
  if (explore)
    return exploreWith(net, rng);
  net.eval();
  at::Tensor q = net.forward(torch::rand({1, 16}));
  return static_cast<int>(q.mean().item<float>());
}

int main() {
  Rng rng{};
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
  int d = greedyAction(net, rng, false) + greedyOrExplore(net, rng, false);
  return a + b + c + d > 0 ? 0 : 1;
}

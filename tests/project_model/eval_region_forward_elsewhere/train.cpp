#include "model.h"

void fitClassifier(Classifier &net) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    net.train();
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      at::Tensor loss = net.forward(torch::rand({4, 16})).mean();
      loss.backward();
      opt.step();
    }
    net.eval();
    float total = 0;
    for (int step = 0; step < 10; ++step)
      total += net.forward(torch::rand({4, 16})).mean().item<float>();
  }
}

void fitPotential(Potential &pot) {
  torch::optim::SGD opt(pot.parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    pot.train();
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      at::Tensor loss = pot.forward(torch::rand({8, 3})).mean();
      loss.backward();
      opt.step();
    }
    pot.eval();
    float total = 0;
    for (int step = 0; step < 10; ++step)
      total += pot.forward(torch::rand({8, 3})).mean().item<float>();
  }
}

int main() {
  Classifier net;
  Potential pot;
  fitClassifier(net);
  fitPotential(pot);
  return 0;
}

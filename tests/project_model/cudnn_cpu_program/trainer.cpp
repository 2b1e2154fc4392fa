#include "model.h"

void train(Net &net, at::Device device, int steps) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < steps; ++step) {
    opt.zero_grad();
    at::Tensor loss = net.forward(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

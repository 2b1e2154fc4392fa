#include "net.h"

// A module of this file registers a Net built in its constructor.
struct ModelImpl : torch::nn::Module {
  ModelImpl() { body = register_module("body", Net(16)); }
  Net body{nullptr};
};

int main() {
  at::Device device(at::kCUDA);
  ModelImpl model;
  model.to(device);
  torch::optim::SGD opt(model.parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    at::Tensor loss = model.body->forward(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

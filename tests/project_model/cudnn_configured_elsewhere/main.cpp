#include "setup.h"

// Everything the check looks for is in this file (a convolution, CUDA, training), and so the
// per-file run reports main(); the project configures cuDNN in setup.cpp: quiet with -p.
struct Net : torch::nn::Module {
  Net() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3))); }
  at::Tensor forward(const at::Tensor &x) { return conv->forward(x); }
  torch::nn::Conv2d conv{nullptr};
};

int main() {
  configureBackends();
  at::Device device(at::kCUDA);
  Net net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    at::Tensor loss = net.forward(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

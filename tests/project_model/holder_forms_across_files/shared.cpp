#include "net.h"

// The module itself, shared: std::make_shared builds it.
int main() {
  at::Device device(at::kCUDA);
  auto net = std::make_shared<NetImpl>(16);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    at::Tensor loss = net->forward(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

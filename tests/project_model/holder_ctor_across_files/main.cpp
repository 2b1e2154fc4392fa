#include "net.h"

int main() {
  at::Device device(at::kCUDA);
  Net net(16);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor loss = net(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

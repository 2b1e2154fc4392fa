#include "renderer.h"

int main() {
  at::Device device(at::kCPU); // a CPU program: the constant costs a host allocation only
  Renderer renderer;
  at::Tensor weights = torch::zeros({3}, at::TensorOptions(device));
  torch::optim::SGD opt(std::vector<at::Tensor>{weights}, torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor loss = (renderer.forward(torch::rand({64, 3}, at::TensorOptions(device))) * weights).sum();
    loss.backward();
    opt.step();
  }
}

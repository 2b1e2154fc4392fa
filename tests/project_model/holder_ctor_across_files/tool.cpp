#include "net.h"

// A second program: it trains a linear model on CUDA and keeps an empty Probe holder that it never
// builds, so probe.cpp's convolution is not this program's: not reported.
int main() {
  at::Device device(at::kCUDA);
  Probe probe{nullptr};
  torch::nn::LinearImpl fc(4, 2);
  fc.to(device);
  torch::optim::SGD opt(fc.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 100; ++step) {
    at::Tensor loss = fc.forward(torch::rand({8, 4}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
  probe = nullptr;
}

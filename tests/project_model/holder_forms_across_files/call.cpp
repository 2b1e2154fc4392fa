#include "net.h"

// Head's convolution is in its forward(), which only the holder's operator() calls.
int main() {
  at::Device device(at::kCUDA);
  Head head;
  head->to(device);
  torch::optim::SGD opt(head->parameters(), torch::optim::SGDOptions(0.01));
  for (int step = 0; step < 100; ++step) {
    at::Tensor loss = head(torch::rand({8, 3, 32, 32}, at::TensorOptions(device))).mean();
    loss.backward();
    opt.step();
  }
}

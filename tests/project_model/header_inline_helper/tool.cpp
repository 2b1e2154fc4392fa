#include "metrics.h"

// A second program: it includes metrics.h but never calls init_backend(), so cuDNN is not
// configured here; its log_metrics() call is outside any loop.
int main() {
  at::Device device(at::kCUDA);
  torch::nn::Conv2dImpl conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv.to(device);
  torch::optim::SGD opt(conv.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor loss = conv.forward(torch::rand({1, 3, 8, 8}, at::TensorOptions(device))).mean();
  loss.backward();
  opt.step();
  std::cout << log_metrics(loss);
}

#include "model.h"

int main() {
  GraphNet net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor index = torch::zeros({64}, at::TensorOptions(at::kCUDA));
  for (int step = 0; step < 10000; ++step) {
    opt.zero_grad();
    at::Tensor loss = net.forward(x) + net.forward(x, c10::nullopt) + net.readout(x, index) + net.shifted(x, {});
    loss.backward();
    opt.step();
  }
}

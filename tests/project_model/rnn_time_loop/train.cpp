#include "net.h"
#include "torch_mini.h"

float train(Net &net, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y) {
  float last = 0;
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(x), y);
    loss.backward();
    opt.step();
    last = loss.item<float>(); // on every step
  }
  return last;
}

int main() {
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor y = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  return train(net, opt, x, y) > 0;
}

#include "metrics.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

float checksum(const std::vector<at::Tensor> &images);

void fit(Net &net, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y) {
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(x), y);
    loss.backward();
    opt.step();
    std::cout << log_metrics(loss);
  }
}

int main() {
  init_backend();
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor y = torch::randn({64, 1}, at::TensorOptions(at::kCUDA));
  std::cout << checksum({x, y});
  fit(net, opt, x, y);
}

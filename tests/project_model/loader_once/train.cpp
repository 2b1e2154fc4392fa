#include "dataset.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Dataset data;
  load(data);
  float mean = pixel_mean(data);
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor target = torch::zeros({1}, at::TensorOptions(at::kCUDA));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(data.images[step].cuda()), target);
    loss.backward();
    opt.step();
  }
  std::cout << mean;
}

#include "torch_mini.h"

struct Critic : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};
float update(Critic &critic, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y);

int main() {
  Critic critic;
  torch::optim::SGD opt(critic.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor y = torch::randn({64, 1}, at::TensorOptions(at::kCUDA));
  float eta = 0;
  for (int step = 0; step < 10000; ++step)
    eta += update(critic, opt, x, y);
  return eta > 0;
}

#include "loss.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main(int argc, char **argv) {
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
    opt.zero_grad();
    at::Tensor loss = target_loss(net.forward(x), torch::rand({64, 1}, at::TensorOptions(at::kCUDA)), argc > 1);
    loss.backward();
    opt.step();
  }
}

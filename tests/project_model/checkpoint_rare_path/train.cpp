#include "checkpoint.h"
#include "torch_mini.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
  at::Tensor weight;
};

void fit(Net &net, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y, Checkpoint &ckpt) {
  for (int step = 0; step < 10000; ++step) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(net.forward(x), y);
    loss.backward();
    opt.step();
    ckpt.log(loss);
    if (step % 500 == 0)
      ckpt.save(net.weight);
    if (step % 1000 == 0)
      ckpt.stash(0, net.weight); // once every 1000 steps, but also called in keep()'s loop
    if (step % 100 == 0)
      ckpt.keep(&net.weight, 1);
  }
}

int main() {
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor y = torch::randn({64, 1}, at::TensorOptions(at::kCUDA));
  Checkpoint ckpt;
  fit(net, opt, x, y, ckpt);
}

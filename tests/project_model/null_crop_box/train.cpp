#include "render.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
  at::Tensor weight;
};

void fit(Net &net, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y) {
  Box box;
  for (int step = 0; step < 10000; ++step) {
    opt.zero_grad();
    at::Tensor image = render(net.forward(x), nullptr);
    at::Tensor again = render(image);
    at::Tensor shown = preview(again, &box);
    at::Tensor clamped = clamp_render(shown, nullptr);
    at::Tensor loss = torch::nn::functional::mse_loss(clamped, y);
    loss.backward();
    opt.step();
  }
}

int main() {
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  at::Tensor x = torch::randn({64, 8}, at::TensorOptions(at::kCUDA));
  at::Tensor y = torch::randn({64, 1}, at::TensorOptions(at::kCUDA));
  fit(net, opt, x, y);
}

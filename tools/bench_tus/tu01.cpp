#include <torch/torch.h>
#include <iostream>
#include <vector>

// bench TU 01: a Conv model trained for a few epochs.
namespace bench01 {
constexpr int IN = 784;
constexpr int OUT = 10;

struct ConvImpl : torch::nn::Module {
  ConvImpl() : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3)))), fc(register_module("fc", torch::nn::Linear(8 * 26 * 26, OUT))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(torch::relu(conv(x.view({-1, 1, 28, 28}))).flatten(1)); }
  torch::nn::Conv2d conv; torch::nn::Linear fc;
};
TORCH_MODULE(Conv);

float logLoss(const torch::Tensor &loss) { return loss.item<float>(); }

float train(int epochs, torch::Device device) {
  Conv net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  float running = 0;
  torch::Tensor total = torch::zeros({1}, device);
  for (int step = 0; step < epochs * 100; ++step) {
    auto x = torch::randn({16, IN}, device);
    auto target = torch::randn({16, OUT}, device);
    auto loss = torch::mse_loss(net->forward(x), target);
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.detach();
  }
  running = total.item<float>();
  return running;
}

float evaluate(Conv &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench01

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench01::train(2, device);
  bench01::Conv net;
  return r + bench01::evaluate(net, device) > 0 ? 0 : 1;
}

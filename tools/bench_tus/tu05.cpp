#include <torch/torch.h>
#include <iostream>
#include <vector>

// bench TU 05: a Conv model trained for a few epochs.
namespace bench05 {
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
  int step = 0;
  while (step < epochs * 50) {
    auto x = torch::randn({8, IN}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 10 == 0)
      running = logLoss(loss);
    ++step;
  }
  return running;
}

float evaluate(Conv &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench05

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench05::train(2, device);
  bench05::Conv net;
  return r + bench05::evaluate(net, device) > 0 ? 0 : 1;
}

#include <torch/torch.h>
#include <iostream>
#include <vector>

// bench TU 09: a Conv model trained for a few epochs.
namespace bench09 {
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
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int b = 0; b < 100; ++b) {
      auto x = torch::randn({32, IN}).to(device);
      auto y = torch::randint(0, OUT, {32}).to(device);
      opt.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      loss.backward();
      opt.step();
      running += loss.item<float>();
    }
  }
  return running;
}

float evaluate(Conv &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench09

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench09::train(2, device);
  bench09::Conv net;
  return r + bench09::evaluate(net, device) > 0 ? 0 : 1;
}

// Training driver.
#include <torch/torch.h>
#include <string>
#include <map>

// bench TU 03: a Norm model trained for a few epochs.
namespace bench03 {
constexpr int IN = 19;
constexpr int OUT = 10;

struct NormImpl : torch::nn::Module {
  NormImpl() : bn(register_module("bn", torch::nn::BatchNorm1d(IN))), fc(register_module("fc", torch::nn::Linear(IN, OUT))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(bn(x)); }
  torch::nn::BatchNorm1d bn; torch::nn::Linear fc;
};
TORCH_MODULE(Norm);

float logLoss(const torch::Tensor &loss) { return loss.item<float>(); }

float train(int epochs, torch::Device device) {
  Norm net;
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

float evaluate(Norm &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench03

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench03::train(2, device);
  bench03::Norm net;
  return r + bench03::evaluate(net, device) > 0 ? 0 : 1;
}

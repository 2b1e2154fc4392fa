#include <torch/torch.h>

// bench TU 00: a Mlp model trained for a few epochs.
namespace bench00 {
constexpr int IN = 16;
constexpr int OUT = 10;

struct MlpImpl : torch::nn::Module {
  MlpImpl() : fc1(register_module("fc1", torch::nn::Linear(IN, 64))), fc2(register_module("fc2", torch::nn::Linear(64, OUT))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Mlp);

float logLoss(const torch::Tensor &loss) { return loss.item<float>(); }

float train(int epochs, torch::Device device) {
  Mlp net;
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

float evaluate(Mlp &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench00

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench00::train(2, device);
  bench00::Mlp net;
  return r + bench00::evaluate(net, device) > 0 ? 0 : 1;
}

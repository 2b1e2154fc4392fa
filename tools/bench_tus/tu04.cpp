#include <torch/torch.h>

// bench TU 04: a Mlp model trained for a few epochs.
namespace bench04 {
constexpr int IN = 20;
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

float evaluate(Mlp &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench04

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench04::train(2, device);
  bench04::Mlp net;
  return r + bench04::evaluate(net, device) > 0 ? 0 : 1;
}

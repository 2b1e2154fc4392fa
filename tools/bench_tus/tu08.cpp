#include <torch/torch.h>

// bench TU 08: a Mlp model trained for a few epochs.
namespace bench08 {
constexpr int IN = 24;
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

float evaluate(Mlp &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench08

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench08::train(2, device);
  bench08::Mlp net;
  return r + bench08::evaluate(net, device) > 0 ? 0 : 1;
}

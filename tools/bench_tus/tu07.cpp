// Training driver.
#include <torch/torch.h>
#include <string>
#include <map>

// bench TU 07: a Norm model trained for a few epochs.
namespace bench07 {
constexpr int IN = 23;
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

float evaluate(Norm &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench07

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench07::train(2, device);
  bench07::Norm net;
  return r + bench07::evaluate(net, device) > 0 ? 0 : 1;
}

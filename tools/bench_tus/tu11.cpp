// Training driver.
#include <torch/torch.h>
#include <string>
#include <map>

// bench TU 11: a Norm model trained for a few epochs.
namespace bench11 {
constexpr int IN = 27;
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

float evaluate(Norm &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench11

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench11::train(2, device);
  bench11::Norm net;
  return r + bench11::evaluate(net, device) > 0 ? 0 : 1;
}

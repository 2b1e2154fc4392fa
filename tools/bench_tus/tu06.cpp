#include <torch/torch.h>
#include <cmath>

// bench TU 06: a Gru model trained for a few epochs.
namespace bench06 {
constexpr int IN = 22;
constexpr int OUT = 10;

struct GruImpl : torch::nn::Module {
  GruImpl() : gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(IN, 32)))), head(register_module("head", torch::nn::Linear(32, OUT))) {}
  torch::Tensor forward(torch::Tensor x) { auto out = std::get<0>(gru(x.unsqueeze(0))); return head(out.squeeze(0)); }
  torch::nn::GRU gru; torch::nn::Linear head;
};
TORCH_MODULE(Gru);

float logLoss(const torch::Tensor &loss) { return loss.item<float>(); }

float train(int epochs, torch::Device device) {
  Gru net;
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

float evaluate(Gru &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench06

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench06::train(2, device);
  bench06::Gru net;
  return r + bench06::evaluate(net, device) > 0 ? 0 : 1;
}

#include <torch/torch.h>
#include <cmath>

// bench TU 10: a Gru model trained for a few epochs.
namespace bench10 {
constexpr int IN = 26;
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

float evaluate(Gru &net, torch::Device device) {
  torch::NoGradGuard guard;
  net->eval();
  auto x = torch::randn({64, IN}, device);
  return net->forward(x).abs().mean().item<float>();
}
} // namespace bench10

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  float r = bench10::train(2, device);
  bench10::Gru net;
  return r + bench10::evaluate(net, device) > 0 ? 0 : 1;
}

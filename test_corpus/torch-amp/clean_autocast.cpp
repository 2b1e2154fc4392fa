// TORCHLINT-CHECKS: -*,torch-amp
// Clean: the loop runs under autocast.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

int main() {
  torch::nn::Linear net(784, 10);
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    at::autocast::set_enabled(true);
    auto loss = net->forward(torch::randn({64, 784}, torch::kCUDA)).to(torch::kFloat).sum();
    at::autocast::set_enabled(false);
    at::autocast::clear_cache();
    loss.backward();
    opt.step();
  }
}

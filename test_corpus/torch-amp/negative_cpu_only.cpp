// TORCHLINT-CHECKS: -*,torch-amp
// Clean: a CPU-only training loop (no CUDA anywhere in the file): autocast on CUDA does not
// apply.
#include <torch/torch.h>

int main() {
  torch::nn::Linear net(16, 4);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({8, 16})).sum().backward();
    opt.step();
  }
}

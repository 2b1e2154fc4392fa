// TORCHLINT-CHECKS: -*,torch-amp
// Clean: CUDA and float32, but no training loop: one backward pass (a gradient check) in setup.
#include <torch/torch.h>

int main() {
  torch::nn::Linear net(16, 16);
  net->to(torch::kCUDA);
  auto loss = net->forward(torch::randn({8, 16}, torch::kCUDA)).sum();
  loss.backward();
  return net->weight.grad().defined() ? 0 : 1;
}

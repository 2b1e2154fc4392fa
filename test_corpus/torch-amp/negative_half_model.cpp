// TORCHLINT-CHECKS: -*,torch-amp
// Clean: the model and data are already fp16 on CUDA; a single warm-up backward outside any
// loop is setup code.
#include <torch/torch.h>

int main() {
  torch::nn::Linear net(16, 16);
  net->to(torch::kCUDA, torch::kHalf);
  torch::optim::SGD opt(net->parameters(), 0.01);
  net->forward(torch::randn({8, 16}, torch::kCUDA).to(torch::kHalf)).sum().backward(); // warm-up
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({8, 16}, torch::kCUDA).to(torch::kHalf)).sum().backward();
    opt.step();
  }
}

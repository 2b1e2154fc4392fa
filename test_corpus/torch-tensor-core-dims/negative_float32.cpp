// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Clean: the same odd sizes in a float32 program (Tensor Cores are not used for fp32 matmuls
// here, so padding buys nothing), plus sizes below 8 (RGB input, a scalar output).
#include <torch/torch.h>

int main() {
  torch::nn::Linear proj(300, 10001);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 100, 3));
  torch::nn::Linear reg(64, 1);
  torch::optim::SGD opt(proj->parameters(), 0.01);
  for (int i = 0; i < 10; ++i) {
    auto x = torch::randn({64, 300}, torch::kCUDA);
    opt.zero_grad();
    proj->forward(x).sum().backward();
    opt.step();
  }
  (void)conv;
  (void)reg;
}

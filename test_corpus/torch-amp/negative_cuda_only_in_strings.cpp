// TORCHLINT-CHECKS: -*,torch-amp
// Clean: a CPU-only training loop whose only mentions of CUDA are a log string and the queries a
// CPU-only program makes too; no device is ever CUDA.
#include <torch/torch.h>
#include <iostream>

int main() {
  if (!torch::cuda::is_available())
    std::cout << "cuda not found, using the CPU\n";
  std::string unused_flag = "cuda";
  torch::nn::Linear net(16, 4);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({8, 16})).sum().backward();
    opt.step();
  }
  (void)unused_flag;
}

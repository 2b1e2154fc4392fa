// TORCHLINT-CHECKS: -*,torch-amp
// Clean: a CPU-only training loop whose only mentions of CUDA are a log string and the queries a
// CPU-only program makes too; no device is ever CUDA.
#include <torch/torch.h>
#include <iostream>

int main() {
  if (!torch::cuda::is_available())
    std::cout << "cuda not found, using the CPU\n";
  std::string unused_flag = "cuda";
  torch::nn::Sequential net(torch::nn::Linear(16, 8), torch::nn::ReLU(), torch::nn::Linear(8, 1));
  torch::optim::Adam opt(net->parameters());
  int step = 0;
  while (step++ < 50) {
    auto loss = torch::mse_loss(net->forward(torch::rand({4, 16})), torch::zeros({4, 1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  (void)unused_flag;
}

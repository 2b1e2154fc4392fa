// torch-sync-item: a whole program in one TU that never uses CUDA (no CUDA device, no .cuda(), no
// CUDA-only API, no device from another TU) has no host-device sync: item() per step is a plain read.
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::manual_seed(0);
  if (torch::cuda::is_available())  // a query alone does not make the program use CUDA
    std::cout << "a GPU is present, but this tutorial trains on the CPU\n";
  torch::nn::Linear model(8, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 8}).to(torch::kCPU);
    auto loss = torch::mse_loss(model->forward(x), x.sum(1, true));
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  std::cout << "cuda is not used here" << total << "\n";
}

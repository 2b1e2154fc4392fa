// No sync: metadata (sizes, dtype, device, numel) never syncs, CPU tensors, code outside the loop.
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4}, device);
  std::cout << w << std::endl; // once, before training
  auto cpu_stats = torch::zeros({4});
  for (int step = 0; step < 100; ++step) {
    std::cout << w.sizes() << " " << w.dtype() << " " << w.device() << " " << w.numel() << std::endl;
    std::cout << cpu_stats << std::endl;
    std::cout << w.cpu().sizes() << std::endl;
    if (w.is_cuda() && w.defined() && w.dim() == 1)
      std::cout << "step " << step << std::endl;
  }
  std::cout << w << std::endl; // once, after training
}

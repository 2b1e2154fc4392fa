// TORCHLINT-CHECKS: -*,torch-sync-value-branch
// No sync: metadata in conditions (numel, size, dim, dtype, device, is_cuda, defined), CPU tensors,
// and checks that run once.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4}, device);
  auto cpu_ref = torch::ones({4});
  if (w.equal(torch::zeros({4}, device))) // once, before training
    return 1;
  for (int step = 0; step < 100; ++step) {
    if (w.numel() == 0 || w.size(0) != 4 || w.dim() != 1 || !w.defined())
      break;
    if (w.dtype() != torch::kFloat || !w.is_cuda() || w.device() != device)
      break;
    auto host = w.detach().cpu();
    if (cpu_ref.equal(torch::ones({4})) && host.allclose(cpu_ref))
      continue;
    w.mul_(0.9);
  }
}

// item() on tensors that are provably on the CPU costs no synchronization: a factory without a
// device option, .cpu(), .to(kCPU), a device variable that is kCPU, ops on such tensors.
#include <torch/torch.h>

int main() {
  torch::Device cpu(torch::kCPU);
  auto counts = torch::zeros({10}, torch::kLong);
  auto gpu = torch::randn({4}, torch::kCUDA);
  float sum = 0;
  for (int step = 0; step < 10; ++step) {
    sum += counts[step % 10].item<int64_t>();
    auto host = gpu.sum().cpu(); // torch-sync-host-copy's business, not item's
    sum += host.item<float>();
    sum += torch::ones({1}, torch::TensorOptions().device(cpu)).item<float>();
    sum += (counts * 2).sum().item<int64_t>();
    auto moved = counts.to(torch::kCPU);
    sum += moved.max().item<int64_t>();
  }
  (void)sum;
}

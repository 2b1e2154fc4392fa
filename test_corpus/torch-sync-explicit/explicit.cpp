// Explicit synchronization in the step.
#include <torch/torch.h>

extern "C" int cudaDeviceSynchronize();

void step_done() {
  torch::cuda::synchronize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: torch::cuda::synchronize() blocks the CPU until the device has finished [torch-sync-explicit]
}

int main() {
  auto w = torch::randn({4}, torch::kCUDA);
  for (int step = 0; step < 10; ++step) {
    w.mul_(0.9);
    step_done();
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cudaDeviceSynchronize() blocks the CPU [torch-sync-explicit]
    if (step % 5 == 0)
      torch::cuda::synchronize();
    // once every 5 steps (a logging branch): quiet
  }
}

// No device-to-host sync: CPU tensors, non-blocking copies, dtype-only .to(), host-to-device
// copies (another check's business), a device pointer handed on, and setup code.
#include <torch/torch.h>

void launch(float *device_ptr, int64_t n) { (void)device_ptr; (void)n; }

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4, 4}, device);
  auto snapshot = w.cpu(); // setup: once
  auto cpu_batch = torch::randn({4, 4});
  auto pinned = torch::empty({4, 4}, torch::TensorOptions().pinned_memory(true));
  for (int step = 0; step < 10; ++step) {
    auto h = cpu_batch.cpu();
    auto h2 = cpu_batch.to(torch::kCPU);
    auto d = cpu_batch.to(device);
    auto f = w.to(torch::kHalf);
    auto async_copy = w.to(torch::kCPU, /*non_blocking=*/true);
    pinned.copy_(w, /*non_blocking=*/true);
    launch(w.data_ptr<float>(), w.numel());
    float host_first = *cpu_batch.data_ptr<float>();
    auto host_acc = cpu_batch.accessor<float, 2>();
    (void)h; (void)h2; (void)d; (void)f; (void)async_copy; (void)host_first; (void)host_acc;
  }
  (void)snapshot;
}

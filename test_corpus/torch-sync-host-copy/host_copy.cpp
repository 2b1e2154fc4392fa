// Device-to-host copies in the step: .cpu(), .to(kCPU), .to(Device("cpu")), .to(a CPU device
// variable), and host reads of device memory.
#include <torch/torch.h>
#include <vector>

std::vector<float> to_host(const torch::Tensor &t) {
  auto h = t.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: .cpu() copies the tensor to host memory [torch-sync-host-copy]
  return std::vector<float>(h.data_ptr<float>(), h.data_ptr<float>() + h.numel());
}

int main() {
  torch::Device device(torch::kCUDA);
  const torch::Device host_device(torch::kCPU);
  auto w = torch::randn({4, 4}, device);
  for (int step = 0; step < 10; ++step) {
    auto loss = (w * w).sum();
    auto values = to_host(w);
    auto a = loss.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: .to(<CPU device>) copies the tensor to host memory [torch-sync-host-copy]
    auto b = loss.to(torch::Device("cpu"));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: .to(<CPU device>) copies [torch-sync-host-copy]
    auto c = w.to(host_device, torch::kDouble);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: .to(<CPU device>) copies [torch-sync-host-copy]
    float first = *w.data_ptr<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: reading a device tensor through data_ptr() on the host [torch-sync-host-copy]
    auto acc = w.accessor<float, 2>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: accessor() reads the tensor from the host, but the tensor is on a device [torch-sync-host-copy]
    (void)values; (void)a; (void)b; (void)c; (void)first; (void)acc;
  }
}

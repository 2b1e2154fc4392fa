// Look-alikes of provenance_returns_ok.cpp: a user function that returns a device tensor on one
// path (device unknown), one that returns a device tensor (proven), a function defined in another
// file (unknown), a tuple of a libtorch call on a device tensor (proven). These reads synchronise:
// a tensor proven to be on the GPU is said to block, one of unknown device to block when it is on
// the GPU.
#include <torch/torch.h>
#include <iostream>
#include <tuple>

torch::Tensor maybe_host(const torch::Tensor &t, bool host) {
  if (host)
    return t.cpu();
  return t;
}

torch::Tensor on_device(const torch::Tensor &t) { return t.to(torch::kCUDA); }

torch::Tensor elsewhere(const torch::Tensor &t);

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 4);
  net->to(device);
  float s = 0;
  for (int step = 0; step < 100; ++step) {
    auto out = net(torch::randn({16, 8}, device));
    s -= maybe_host(out, step % 2 == 0).sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; accumulate the value on the device instead [torch-sync-item]
    s -= on_device(out).sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; accumulate the value on the device instead [torch-sync-item]
    s -= elsewhere(out).sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks [torch-sync-item]
    auto [values, indices] = torch::max(out, 1);
    s -= indices.sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work [torch-sync-item]
    s -= std::get<0>(torch::max(torch::randn({4, 4}, device), 1)).sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work [torch-sync-item]
  }
  std::cout << s << "\n";
}

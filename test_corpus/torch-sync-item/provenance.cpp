// Device provenance: a tensor that is moved, reassigned from a device tensor, or of unknown device
// (a parameter, a field) is reported; a logging branch is quiet (once per logging interval, the
// advice itself) and assert() gives a remark; TORCH_CHECK is
// not compiled out.
#include <torch/torch.h>
#include <cassert>

float read(const torch::Tensor &t) {
  return t.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: Tensor::item() copies the value [torch-sync-item]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4}, device);
  auto acc = torch::zeros({1});
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    acc = acc.to(device) + w.sum(); // no longer provably CPU
    total += read(w);
    total += acc.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: Tensor::item() copies the value [torch-sync-item]
    auto idx = torch::randint(0, 4, {}, device);
    auto row = w[idx];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: Tensor::operator[] with a tensor index reads the index with item() [torch-sync-item]
    if (step % 50 == 0) {
      float shown = w.sum().item<float>();
      // once every 50 steps: quiet
      (void)shown;
    }
    assert(w.sum().item<float>() == w.sum().item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: remark: inside assert(), which NDEBUG (release) builds compile out [torch-sync-item]
    // CHECK-MESSAGES: :[[@LINE-2]]:45: remark: inside assert() [torch-sync-item]
    TORCH_CHECK(w.sum().item<float>() > -1e9, "diverged");
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: Tensor::item() copies the value [torch-sync-item]
    (void)row;
  }
  (void)total;
}

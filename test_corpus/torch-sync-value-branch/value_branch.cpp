// Control flow on tensor values in the step. item() in a condition is reported here only when
// torch-sync-item is off (see value_branch_with_item.cpp).
#include <torch/torch.h>
#include <cassert>

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4}, device);
  auto prev = torch::zeros({4}, device);
  for (int step = 0; step < 100; ++step) {
    auto loss = (w * w).sum();
    if (loss.is_nonzero())
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: is_nonzero() returns a host bool computed from tensor values [torch-sync-value-branch]
      w.mul_(0.5);
    if (w.equal(prev))
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: equal() returns a host bool [torch-sync-value-branch]
      break;
    bool close = torch::allclose(w, prev);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: allclose() returns a host bool [torch-sync-value-branch]
    if (loss.item<float>() < 1e-3f)
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: item() in the condition of if [torch-sync-value-branch]
      break;
    while ((w.abs() > 10).any().item<bool>())
      // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: item() in the condition of while [torch-sync-value-branch]
      w.div_(2);
    TORCH_CHECK(loss.item<float>() >= 0, "negative loss");
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: item() in an assertion (TORCH_CHECK()) [torch-sync-value-branch]
    assert(loss.item<float>() >= 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: remark: it is inside assert(), which NDEBUG (release) builds compile out [torch-sync-value-branch]
    if (step % 10 == 0 && w.allclose(prev))
      // CHECK-MESSAGES: :[[@LINE-1]]:29: remark: it only runs when `step % 10 == 0` (short-circuit `&&`) [torch-sync-value-branch]
      break;
    prev = w.clone();
    (void)close;
  }
}

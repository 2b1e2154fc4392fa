// Control flow on tensor values in the step. item() in a condition (the if/while/TORCH_CHECK/assert
// lines below) is reported by this check only when torch-sync-item is off; the corpus harness runs
// every check at once, so here (and in value_branch_with_item.cpp) torch-sync-item reports them.
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
      break;
    while ((w.abs() > 10).any().item<bool>())
      w.div_(2);
    TORCH_CHECK(loss.item<float>() >= 0, "negative loss");
    assert(loss.item<float>() >= 0);
    if (step % 10 == 0 && w.allclose(prev))
      // only when `step % 10 == 0` (short-circuit `&&`): once per 10 steps, quiet
      break;
    prev = w.clone();
    (void)close;
  }
}

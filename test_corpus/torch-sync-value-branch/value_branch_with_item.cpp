// TORCHLINT-CHECKS: -*,torch-sync-value-branch,torch-sync-item
// With torch-sync-item on, an item() in a condition is reported once, by torch-sync-item.
#include <torch/torch.h>

int main() {
  auto w = torch::randn({4}, torch::kCUDA);
  for (int step = 0; step < 100; ++step) {
    auto loss = (w * w).sum();
    if (loss.item<float>() < 1e-3f)
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: Tensor::item() copies the value [torch-sync-item]
      break;
  }
}

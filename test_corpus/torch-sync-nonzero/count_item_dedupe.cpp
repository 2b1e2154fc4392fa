// TORCHLINT-CHECKS: -*,torch-sync-nonzero,torch-sync-item
// With torch-sync-item on, the item() of count_nonzero(...).item() is reported once, by it.
#include <torch/torch.h>

int main() {
  auto x = torch::randn({16}, torch::kCUDA);
  int64_t total = 0;
  for (int step = 0; step < 10; ++step) {
    total += torch::count_nonzero(x > 0).item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: Tensor::item() copies the value [torch-sync-item]
  }
  (void)total;
}

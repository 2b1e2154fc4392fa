// TORCHLINT-CHECKS: -*,torch-sync-nonzero
// count_nonzero(...).item() reads the count on the host. torch-sync-item reports the item() when it
// runs; with it off, this check does.
#include <torch/torch.h>

int main() {
  auto x = torch::randn({16}, torch::kCUDA);
  int64_t total = 0;
  for (int step = 0; step < 10; ++step) {
    total += torch::count_nonzero(x > 0).item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: count_nonzero(...).item() reads the count on the host [torch-sync-nonzero]
  }
  (void)total;
}

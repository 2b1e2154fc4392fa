// TORCHLINT-VERSIONS: 2
// nonzero_static (libtorch 2.x) has a fixed output size: no sync.
#include <torch/torch.h>

int main() {
  auto x = torch::randn({16}, torch::kCUDA);
  for (int step = 0; step < 10; ++step) {
    auto idx = torch::nonzero_static(x > 0, /*size=*/8);
    (void)idx;
  }
}

// No sync to report: CPU-only tensors, setup code that runs once, the three-argument where, and a
// user function that only shares the name.
#include <torch/torch.h>

namespace mylib {
// Not libtorch's nonzero.
std::vector<int64_t> nonzero(const std::vector<int64_t> &v) { return v; }
} // namespace mylib

int main() {
  torch::Device device(torch::kCUDA);
  auto x = torch::randn({16, 8}, device);
  // Setup: runs once.
  auto first = x.nonzero();
  auto cpu_labels = torch::randint(0, 4, {16});
  for (int step = 0; step < 10; ++step) {
    // Provably CPU: made without a device option and never moved.
    auto idx = cpu_labels.nonzero();
    auto host = x.cpu();
    auto host_idx = torch::argwhere(host > 0);
    // Fixed-shape alternative: no sync.
    auto y = torch::where(x > 0, x, torch::zeros_like(x));
    auto n = torch::count_nonzero(x);
    auto same = mylib::nonzero({1, 2, 3});
    (void)idx; (void)host_idx; (void)y; (void)n; (void)same;
  }
  (void)first;
}

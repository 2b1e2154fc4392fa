// torch-from-blob-pinned: the flag pins nothing wherever it is written, in set-up code too (a
// whole data set wrapped once, then copied with non_blocking), and with at::from_blob and a
// deleter.
#include <torch/torch.h>
#include <vector>

static torch::Tensor wrap(float *p, int64_t n) {
  return at::from_blob(p, {n}, [](void *) {}, at::TensorOptions().pinned_memory(true).dtype(at::kFloat));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: from_blob() wraps memory it does not allocate [torch-from-blob-pinned]
}

int main() {
  std::vector<float> data(1024, 0.5f);
  auto all = wrap(data.data(), 1024).to(torch::Device(torch::kCUDA), /*non_blocking=*/true);
  return all.numel() > 0 ? 0 : 1;
}

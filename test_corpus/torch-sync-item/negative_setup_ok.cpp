// torch-sync-item: negatives. item() that runs once, code that only looks alike.
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Queue {          // not a tensor: its item() is not a sync
  int item() const { return 3; }
  template <typename T> T item() const { return T(); }
};

static float report(const torch::Tensor& loss) { return loss.item<float>(); }  // only called after training

template <typename T>
T never_instantiated_in_a_loop(const torch::Tensor& t) { return t.template item<T>(); }

int main() {
  auto x = torch::randn({64, 16});
  float scale = x.abs().max().item<float>();     // setup, once
  Queue q;
  int total = 0;
  for (int i = 0; i < 10; ++i) {
    total += q.item();                           // looks alike, not a tensor
    total += q.item<int>();
    total += static_cast<int>(x.size(0)) + static_cast<int>(x.numel());  // metadata, no sync
  }
  // A for-init runs once.
  for (int64_t n = x.sum().item<int64_t>(); n > 0; n /= 2) {
    total += 1;
  }
  std::cout << report(x.sum()) << scale << total << never_instantiated_in_a_loop<float>(x) << "\n";
  return 0;
}

// Synchronization outside the step (once, before reading a timer) and a user function that only
// shares the name.
#include <torch/torch.h>

struct Barrier {
  void synchronize() {}
};

int main() {
  auto w = torch::randn({4}, torch::kCUDA);
  Barrier b;
  for (int step = 0; step < 10; ++step) {
    w.mul_(0.9);
    b.synchronize();
  }
  torch::cuda::synchronize();
}

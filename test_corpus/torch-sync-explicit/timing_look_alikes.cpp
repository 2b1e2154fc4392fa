// torch-sync-explicit: look-alikes of timing code that are not: a clock read that is not next to
// the sync (the sync is not what the measurement needs), and a sync next to a call that only
// shares a word with timing.
#include <torch/torch.h>
#include <chrono>

struct Scheduler {
  void start() {}
};

int main() {
  auto w = torch::randn({64, 64}, torch::kCUDA);
  Scheduler sched;
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    auto t0 = std::chrono::steady_clock::now();
    w = w.matmul(w).tanh();
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: torch::cuda::synchronize() blocks the CPU [torch-sync-explicit]
    w = w.relu();
    auto t1 = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(t1 - t0).count();
    sched.start();
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: torch::cuda::synchronize() blocks the CPU [torch-sync-explicit]
  }
  return total > 0;
}

// torch-sync-explicit: synchronizing to time the step is what timing code must do (the check's own
// doc says so): a sync right before or after a clock read, a CUDA event recorded or timed, or a
// timer object, is not reported.
#include <torch/torch.h>
#include <chrono>
#include <ctime>

extern "C" int cudaDeviceSynchronize();
extern "C" int cudaEventRecord(void *event, void *stream);
extern "C" int cudaEventSynchronize(void *event);
extern "C" int cudaEventElapsedTime(float *ms, void *start, void *end);

struct StepTimer {
  void start() {}
  double stop() { return 0.0; }
};

int main(int argc, char **) {
  auto w = torch::randn({64, 64}, torch::kCUDA);
  bool profile = argc > 1;
  void *ev_start = nullptr, *ev_end = nullptr;
  StepTimer timer;
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    torch::cuda::synchronize();
    auto t0 = std::chrono::steady_clock::now();
    w = w.matmul(w).tanh();
    torch::cuda::synchronize();
    auto t1 = std::chrono::steady_clock::now();
    total += std::chrono::duration<double>(t1 - t0).count();

    cudaEventRecord(ev_start, nullptr);
    w = w.relu();
    cudaEventRecord(ev_end, nullptr);
    cudaEventSynchronize(ev_end);
    float ms = 0;
    cudaEventElapsedTime(&ms, ev_start, ev_end);

    timer.start();
    w = w * 0.5;
    cudaDeviceSynchronize();
    total += timer.stop();

    if (profile) {
      torch::cuda::synchronize();
    }
    std::clock_t c = std::clock();
    (void)c;
  }
  return total > 0;
}

// item() after a copy to a device named by a string: "cpu" (and "CPU", which libtorch rejects at
// run time: the program means the host, or stops there; neither waits for a GPU) is the host;
// "cuda:0" is not.
#include <torch/torch.h>

int main() {
  auto gpu = torch::randn({4}, torch::kCUDA);
  float sum = 0;
  for (int step = 0; step < 10; ++step) {
    auto lower = gpu.sum().to(torch::Device("cpu"));
    sum += lower.item<float>();
    auto upper = gpu.sum().to(torch::Device("CPU"));
    sum += upper.item<float>();
    auto indexed = gpu.max().to(torch::Device("cpu:0"));
    sum += indexed.item<float>();
    auto device = gpu.mean().to(torch::Device("cuda:0"));
    sum += device.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work [torch-sync-item]
  }
  (void)sum;
}

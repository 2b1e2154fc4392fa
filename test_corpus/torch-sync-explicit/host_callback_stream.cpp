// torch-sync-explicit: a side stream from the pool that runs work as well as host callbacks (the
// augmentation of the next batch is queued on it under a CUDAStreamGuard): synchronizing it on
// every step waits for that work, which the GPU runs while the CPU waits. Reported. The stream
// that only carries callbacks is in host_callback_stream_ok.cpp.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h? cuda_runtime.h?
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>
#include <functional>

struct Trainer {
  torch::nn::Linear net{16, 4};
  torch::optim::Adam opt{net->parameters(), 1e-3};
  std::function<void()> progress;
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool(false);

  void train(int iterations) {
    net->to(torch::kCUDA);
    torch::Tensor next = torch::randn({32, 16}, torch::kCUDA);
    for (int iter = 0; iter < iterations; ++iter) {
      side.synchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: CUDAStream::synchronize() blocks the CPU until the device has finished the queued work [torch-sync-explicit]
      auto x = next;
      {
        c10::cuda::CUDAStreamGuard guard(side);
        next = torch::randn({32, 16}, torch::kCUDA).mul_(0.5);
      }
      auto loss = net->forward(x).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (progress)
        cudaLaunchHostFunc(side.stream(), [](void *self) { static_cast<Trainer *>(self)->progress(); }, this);
    }
  }
};

int main() {
  Trainer t;
  t.train(1000);
}

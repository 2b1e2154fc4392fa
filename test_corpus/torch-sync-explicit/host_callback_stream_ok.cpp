// torch-sync-explicit: a side stream from the pool that only ever carries host callbacks (a GUI
// progress update launched with cudaLaunchHostFunc after each step). Waiting for it, before the
// next callback is launched, waits for that callback, not for the training kernels on the current
// stream: no finding. The look-alike, a side stream that also runs work, is in
// host_callback_stream.cpp.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h? cuda_runtime.h?
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <atomic>
#include <functional>

struct Trainer {
  torch::nn::Linear net{16, 4};
  torch::optim::Adam opt{net->parameters(), 1e-3};
  std::function<void()> progress;
  std::atomic<bool> busy{false};
  at::cuda::CUDAStream callbacks = at::cuda::getStreamFromPool(false);

  void train(int iterations) {
    net->to(torch::kCUDA);
    for (int iter = 0; iter < iterations; ++iter) {
      if (busy.load())
        callbacks.synchronize();
      auto loss = net->forward(torch::randn({32, 16}, torch::kCUDA)).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (progress) {
        busy = true;
        cudaLaunchHostFunc(
            callbacks.stream(),
            [](void *self) {
              auto *t = static_cast<Trainer *>(self);
              t->progress();
              t->busy = false;
            },
            this);
      }
    }
    if (busy.load())
      callbacks.synchronize();
  }
};

int main() {
  Trainer t;
  t.train(1000);
}

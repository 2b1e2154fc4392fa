// torch-sync-item in a .cu file (issue 24): a custom operator's kernel, its launcher and the
// per-step glue that calls it, as a libtorch extension writes them. torchlint parses the file as
// CUDA host code without a CUDA toolkit (cli/CudaHost.h); the kernel (device code) is parsed but
// not judged. Finding: the loss read with item() on every step. Negatives: the kernel, the
// launcher, the value read once after training.
#include <torch/torch.h>

__device__ float squared(float v) { return v * v; }

__global__ void scale_kernel(float *x, float a, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += blockDim.x * gridDim.x)
    x[i] = squared(x[i]) * a;
}

torch::Tensor scale(torch::Tensor x, float a) {
  auto y = x.contiguous();
  const int64_t n = y.numel();
  dim3 block(256), grid((n + 255) / 256);
  scale_kernel<<<grid, block, 0>>>(y.data_ptr<float>(), a, n);
  return y;
}

float train(torch::nn::Linear &model, torch::optim::SGD &opt, torch::Tensor x, torch::Tensor target) {
  float last = 0;
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(scale(x, 0.5f)), target);
    loss.backward();
    opt.step();
    last = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: Tensor::item() copies [torch-sync-item]
  }
  auto final_loss = torch::mse_loss(model->forward(x), target);
  return last + final_loss.item<float>();  // quiet: once, after training
}

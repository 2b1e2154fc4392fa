// torch-sync-item in a file that includes libtorch's CUDA headers on a machine without the CUDA
// toolkit (and, with Debian's CPU-only libtorch 1.13, without libtorch's CUDA configuration
// header) (issue 14): the missing headers are skipped, the training loop is analysed.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h?
#include <torch/torch.h>
#include <c10/cuda/CUDAGuard.h>
#include <ATen/cuda/CUDAContext.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, int steps) {
  c10::cuda::CUDAGuard guard(0);
  for (int step = 0; step < steps; ++step) {
    auto x = torch::randn({4, 8}, torch::kCUDA);
    auto loss = model->forward(x).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    float v = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: Tensor::item() copies the value to the host [torch-sync-item]
    (void)v;
  }
}

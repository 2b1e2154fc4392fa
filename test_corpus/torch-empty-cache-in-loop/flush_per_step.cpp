// torch-empty-cache-in-loop: the caching allocator flushed on every step, directly in the training
// loop and through a helper the loop calls.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h?
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>

void release_memory() {
  c10::cuda::CUDACachingAllocator::emptyCache();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: emptyCache() on every step hands the caching allocator's free blocks back to the driver [torch-empty-cache-in-loop]
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(512, 512);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({64, 512}, device);
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: emptyCache() on every step hands the caching allocator's free blocks back to the driver [torch-empty-cache-in-loop]
    release_memory();
  }
}

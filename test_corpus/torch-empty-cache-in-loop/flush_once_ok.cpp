// Clean: the allocator flushed once between phases (after loading, after training, between
// epochs), not on every step.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h?
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(512, 512);
  model->to(device);
  c10::cuda::CUDACachingAllocator::emptyCache();
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int step = 0; step < 1000; ++step) {
      auto x = torch::randn({64, 512}, device);
      auto loss = model->forward(x).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    c10::cuda::CUDACachingAllocator::emptyCache(); // once per epoch
  }
  c10::cuda::CUDACachingAllocator::emptyCache();
}

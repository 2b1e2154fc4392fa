// Clean: flushes that only run on some steps are a deliberate policy: every N steps, on memory
// pressure, and in the out-of-memory handler that retries with a smaller batch. Also a user
// function that only shares the name, and a user allocator's emptyCache().
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h?
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>

namespace mycache {
void emptyCache() {}
} // namespace mycache

struct TileCache {
  void emptyCache() {}
};

int main(int argc, char **) {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(512, 512);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  TileCache tiles;
  int64_t batch = 64;
  bool low_memory = argc > 1;
  for (int step = 0; step < 1000; ++step) {
    try {
      auto x = torch::randn({batch, 512}, device);
      auto loss = model->forward(x).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    } catch (const c10::Error &) {
      c10::cuda::CUDACachingAllocator::emptyCache();
      batch /= 2;
    }
    if (step % 100 == 0)
      c10::cuda::CUDACachingAllocator::emptyCache();
    if (low_memory)
      c10::cuda::CUDACachingAllocator::emptyCache();
    mycache::emptyCache();
    tiles.emptyCache();
  }
}

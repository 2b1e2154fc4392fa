// torch-empty-cache-in-loop: an inference server that flushes the allocator after every request,
// with a using-declaration for the allocator's namespace.
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1 cuda_runtime_api.h?
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <vector>

namespace alloc = c10::cuda::CUDACachingAllocator;

struct Server {
  torch::nn::Linear model{256, 10};
  torch::Tensor handle(const torch::Tensor &request) {
    torch::NoGradGuard no_grad;
    auto out = model->forward(request.to(torch::kCUDA));
    alloc::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: emptyCache() on every step [torch-empty-cache-in-loop]
    return out;
  }
};

int main() {
  Server server;
  server.model->to(torch::kCUDA);
  std::vector<torch::Tensor> requests(100, torch::ones({8, 256}));
  for (const auto &r : requests)
    server.handle(r);
}

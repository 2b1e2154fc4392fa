// torch-from-blob-pinned look-alike: memory the program pins itself (cudaHostAlloc): from_blob
// wraps pinned memory, so the flag is only redundant and the non_blocking copy is asynchronous.
#include <torch/torch.h>
#include <cstddef>

extern "C" int cudaHostAlloc(void **ptr, std::size_t size, unsigned int flags);

int main() {
  torch::Device device(torch::kCUDA);
  void *buf = nullptr;
  cudaHostAlloc(&buf, 16 * 8 * sizeof(float), 0);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::from_blob(buf, {16, 8}, torch::TensorOptions().pinned_memory(true)).to(device, true);
    (void)x.sum();
  }
  return 0;
}

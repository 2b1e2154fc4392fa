// torch-create-then-move: negatives. Uploads of host data, *_like, dtype conversions, tensors
// created on the device, moves that are not immediate.
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  std::vector<float> host(16, 1.0f);
  auto a = torch::from_blob(host.data(), {16}).to(device);          // an upload of host data
  auto b = torch::zeros({4}, torch::TensorOptions().device(device)); // already on the device
  auto c = torch::zeros_like(b).to(device);                         // *_like follows its input
  auto d = torch::ones({4}).to(torch::kHalf);                       // dtype conversion, not a move
  auto e = torch::randn({4});
  e = e.to(device);                                                 // not immediate: e may be used on the CPU
  auto f = torch::rand({4}).to(b);                                  // .to(other): dtype and device of b
  auto g = torch::ones({4}).cpu();                                  // stays on the host
  (void)a; (void)c; (void)d; (void)f; (void)g;
  return 0;
}

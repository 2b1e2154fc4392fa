// torch-create-then-move: negatives for the wider factory set. *_like factories, tensor methods
// that create (new_zeros follows its tensor's device), and a user factory that looks alike.
#include <torch/torch.h>

namespace mylib {
torch::Tensor hann_window(int64_t n, torch::TensorOptions options = {}) { return torch::ones({n}, options); }
} // namespace mylib

int main() {
  torch::Device device(torch::kCUDA);
  auto base = torch::ones({4}, torch::TensorOptions().device(device));
  auto a = torch::rand_like(base).to(device);
  auto b = base.new_zeros({4}).to(device);
  auto c = mylib::hann_window(8).to(device);
  (void)a; (void)b; (void)c;
  return 0;
}

// Clean: the same constant tensors in forward() of a CPU-only program (no upload, host
// allocator): not reported.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor x) {
    auto w = torch::tensor({1.0, 2.0, 0.5});
    return fc->forward(x * w) * -1 * torch::ones_like(x);
  }
  torch::nn::Linear fc{nullptr};
};

int main() {
  Net net;
  for (int i = 0; i < 10; ++i)
    net.forward(torch::randn({4, 3})).sum().backward();
}

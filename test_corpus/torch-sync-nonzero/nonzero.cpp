// nonzero, argwhere and the one-argument where(cond) in the training step, directly, in a helper
// called from the loop, and in forward().
#include <torch/torch.h>

// A helper called from the loop: its parameter's device is unknown, so it is reported.
torch::Tensor background(const torch::Tensor &target, int64_t num_classes) {
  return torch::nonzero(target == num_classes - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: nonzero() returns a tensor whose size depends on the data [torch-sync-nonzero]
}

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    auto picked = (x > 0).argwhere();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: argwhere() returns a tensor whose size depends on the data [torch-sync-nonzero]
    (void)picked;
    return fc->forward(x);
  }
};

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  net.to(device);
  for (int step = 0; step < 10; ++step) {
    auto x = torch::randn({16, 8}, device);
    auto target = torch::randint(0, 4, {16}, torch::TensorOptions().device(device));
    auto inds = background(target, 4);
    auto nz = x.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: nonzero() returns a tensor whose size depends on the data [torch-sync-nonzero]
    auto parts = torch::where(target == 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: where(cond) with one argument is nonzero(cond, as_tuple=true) [torch-sync-nonzero]
    auto out = net.forward(x);
    (void)inds; (void)nz; (void)parts; (void)out;
  }
}

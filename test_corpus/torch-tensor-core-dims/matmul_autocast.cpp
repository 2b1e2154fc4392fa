// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Under autocast, matmuls of float32 tensors run in fp16: their constant dimensions count too.
// Sizes from constexpr members, operands through .cuda()/.requires_grad_()/torch::t(), and a
// matmul in a function template (reported once, not once per instantiation).
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

struct Dims {
  static constexpr int64_t kIn = 784;
  static constexpr int64_t kClasses = 10;
};

template <typename T>
torch::Tensor scaled(T s) {
  auto a = torch::rand({128, 100}).cuda();
  auto b = torch::rand({100, 64}).cuda();
  return torch::mm(a, b) * s;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: mm inner dimension K = 100 is not a multiple of 8: in autocast (this file computes in reduced precision from line 25) [torch-tensor-core-dims]
}

int main() {
  auto w = torch::randn({Dims::kClasses, Dims::kIn}, torch::kCUDA).requires_grad_();
  torch::optim::SGD opt({w}, 0.01);
  constexpr int64_t batch = 250;
  at::autocast::set_enabled(true);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({batch, Dims::kIn}, torch::kCUDA);
    auto logits = x.mm(torch::t(w));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: mm rows M = 250 is not a multiple of 8 [torch-tensor-core-dims]
    // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: mm columns N = 10 is not a multiple of 8 [torch-tensor-core-dims]

    // eye(n) is n x n; baddbmm(input, b1, b2) multiplies b1 and b2.
    auto mix = torch::matmul(torch::eye(50, torch::kCUDA), torch::ones({50, 64}, torch::kCUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: matmul rows M = 50 is not a multiple of 8 [torch-tensor-core-dims]
    // CHECK-MESSAGES: :[[@LINE-2]]:16: warning: matmul inner dimension K = 50 is not a multiple of 8 [torch-tensor-core-dims]
    auto acc = torch::zeros({4, 32, 32}, torch::kCUDA);
    auto b1 = torch::randn({4, 32, 20}, torch::kCUDA);
    auto b2 = torch::randn_like(torch::randn({4, 32, 20}, torch::kCUDA)).transpose(-1, -2);
    auto att = acc.baddbmm(b1, b2);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: baddbmm inner dimension K = 20 is not a multiple of 8 [torch-tensor-core-dims]
    auto gram = torch::matmul(b1.mT(), b1.swapdims(0, 0));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: matmul rows M = 20 is not a multiple of 8 [torch-tensor-core-dims]
    // CHECK-MESSAGES: :[[@LINE-2]]:17: warning: matmul columns N = 20 is not a multiple of 8 [torch-tensor-core-dims]

    opt.zero_grad();
    (logits.sum() + mix.sum() + att.sum() + gram.sum() + scaled(1.0f).sum() + scaled(2).sum()).backward();
    opt.step();
  }
  at::autocast::set_enabled(false);
}

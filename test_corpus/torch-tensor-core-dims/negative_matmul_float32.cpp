// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Clean: the same misaligned matmuls as matmul_half.cpp in a float32 program that never uses
// autocast (no Tensor Core kernels for these fp32 matmuls, so padding buys nothing).
#include <torch/torch.h>

namespace F = torch::nn::functional;

constexpr int64_t kHidden = 300;
constexpr int64_t kVocab = 10001;

torch::Tensor project() {
  auto x = torch::randn({64, kHidden}, torch::kCUDA);
  auto w = torch::randn({kHidden, 512}, torch::kCUDA);
  return torch::matmul(x, w);
}

int main() {
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({64, kHidden}, torch::kCUDA);
    auto w = torch::randn({kVocab, kHidden}, torch::kCUDA);
    auto logits = x.matmul(w.t());
    auto q = torch::randn({16, 100, 72}, torch::kCUDA);
    auto scores = q.bmm(q.transpose(1, 2));
    auto o = F::linear(x, torch::randn({kVocab, kHidden}, torch::kCUDA));
    (project().sum() + logits.sum() + scores.sum() + o.sum()).backward();
  }
}

// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Matrix multiplies of tensors whose shapes are compile-time constants, in a model trained in
// fp16: M, N or K that are not multiples of 8 miss Tensor Core kernels.
#include <torch/torch.h>

namespace F = torch::nn::functional;

constexpr int64_t kHidden = 300;
constexpr int64_t kVocab = 10001;

// A helper called from the training loop: both operands are made here.
torch::Tensor project() {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kHalf);
  auto x = torch::randn({64, kHidden}, opts);
  auto w = torch::randn({kHidden, 512}, opts);
  return torch::matmul(x, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: matmul inner dimension K = 300 is not a multiple of 8: in fp16/bf16 (this file computes in reduced precision from line 13) Tensor Core kernels need matrix dimensions that are multiples of 8, so this matrix multiply falls back to slower kernels or pads on every call; pad it to 304 [torch-tensor-core-dims]
}

int main() {
  auto opts = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kHalf);
  for (int step = 0; step < 100; ++step) {
    torch::Tensor y = project();

    // x.matmul(w.t()): w is [kVocab, kHidden], so w.t() is [kHidden, kVocab].
    auto x = torch::randn({64, kHidden}, opts);
    auto w = torch::randn({kVocab, kHidden}, opts);
    auto logits = x.matmul(w.t());
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: matmul inner dimension K = 300 is not a multiple of 8 [torch-tensor-core-dims]
    // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: matmul columns N = 10001 is not a multiple of 8 [torch-tensor-core-dims]

    // Shape-preserving conversions between the factory and the multiply.
    auto a = torch::zeros({100, 512}).to(torch::kCUDA).to(torch::kHalf);
    auto b = torch::ones({512, 256}, opts).contiguous();
    auto c = torch::mm(a, b);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: mm rows M = 100 is not a multiple of 8 [torch-tensor-core-dims]

    // Batched: the last two dimensions; k.transpose(1, 2) is [16, 72, 100].
    auto q = torch::randn({16, 128, 72}, opts);
    auto k = torch::randn({16, 100, 72}, opts);
    auto scores = q.bmm(k.transpose(1, 2));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: bmm columns N = 100 is not a multiple of 8 [torch-tensor-core-dims]

    // matmul broadcasts a 3-D operand against a matrix: M is the second-to-last dimension.
    auto seq = torch::randn({32, 20, 512}, opts);
    auto proj = torch::randn({512, 512}, opts);
    auto out = torch::matmul(seq, proj);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: matmul rows M = 20 is not a multiple of 8 [torch-tensor-core-dims]

    // addmm(input, m1, m2): the input is only added.
    auto bias = torch::zeros({1001}, opts);
    auto h = torch::randn({64, 512}, opts);
    auto w2 = torch::randn({512, 1001}, opts);
    auto z = torch::addmm(bias, h, w2);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: addmm columns N = 1001 is not a multiple of 8 [torch-tensor-core-dims]

    // linear(input, weight): the weight is [out_features, in_features]; the input may be any size.
    auto weight = torch::randn({kVocab, 512}, opts);
    auto o1 = F::linear(y.view({-1, 512}), weight);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: linear out_features N = 10001 is not a multiple of 8 [torch-tensor-core-dims]
    auto w3 = torch::randn({512, 300}, opts);
    auto o2 = torch::linear(h, w3);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: linear in_features K = 300 is not a multiple of 8 [torch-tensor-core-dims]

    (logits.sum() + c.sum() + scores.sum() + out.sum() + z.sum() + o1.sum() + o2.sum()).backward();
  }
}

// torch-tf32-matmul: hand-written attention with torch::matmul in a helper the inference loop
// calls, on CUDA in fp32.
#include <torch/torch.h>

torch::Tensor attend(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v) {
  auto scores = torch::matmul(q, k.transpose(-2, -1)) / 8.0;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: matmul() runs a float32 matrix product on CUDA [torch-tf32-matmul]
  return torch::softmax(scores, -1).matmul(v);
}

int main() {
  torch::NoGradGuard no_grad;
  auto opts = torch::TensorOptions().device(torch::kCUDA);
  auto k = torch::randn({8, 128, 64}, opts), v = torch::randn({8, 128, 64}, opts);
  for (int i = 0; i < 1000; ++i) {
    auto q = torch::randn({8, 128, 64}, opts);
    auto out = attend(q, k, v);
    (void)out;
  }
}

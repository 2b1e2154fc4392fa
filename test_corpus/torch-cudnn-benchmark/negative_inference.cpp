// torch-cudnn-benchmark: a conv-net on CUDA that is only evaluated (no training step).
#include <torch/torch.h>

int main() {
  torch::NoGradGuard no_grad;
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3));
  conv->to(torch::kCUDA);
  conv->eval();
  auto y = conv(torch::randn({4, 1, 8, 8}, torch::kCUDA));
  (void)y;
  return 0;
}

// torch-cudnn-benchmark: negatives that only look alike. An MLP on CUDA (no convolution), and
// conv-nets that are trained on the CPU (negative_cpu_conv.cpp) or only run inference
// (negative_inference.cpp).
#include <torch/torch.h>

int main() {
  torch::nn::Linear mlp(16, 4);
  mlp->to(torch::kCUDA);
  torch::optim::SGD opt(mlp->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    mlp(torch::randn({4, 16}, torch::kCUDA)).sum().backward();
    opt.step();
  }
  return 0;
}

// torch-cudnn-benchmark: CUDA chosen through a device string ("cpu" first in the conditional, the
// CUDA arm second), and a functional convolution: the message names the convolution, the CUDA
// device and the training call it rests on.
#include <torch/torch.h>

torch::Tensor net(const torch::Tensor &x, const torch::Tensor &w) {
  return torch::nn::functional::conv2d(x, w).relu().mean();
}

int main(int argc, char **) {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (torch::nn::functional::conv2d() at line 7) on CUDA (from line 13) and trains (line 17) without the cuDNN auto-tuner [torch-cudnn-benchmark]
  bool force_cpu = argc > 1;
  torch::Device device(force_cpu ? "cpu" : "cuda:0");
  auto w = torch::randn({8, 3, 3, 3}, torch::TensorOptions().device(device).requires_grad(true));
  torch::optim::SGD opt({w}, 0.01);
  for (int step = 0; step < 10; ++step) {
    net(torch::randn({4, 3, 16, 16}, device), w).backward();
    opt.step();
  }
  return 0;
}

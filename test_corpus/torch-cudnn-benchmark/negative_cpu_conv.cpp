// torch-cudnn-benchmark: a conv-net trained on the CPU: cuDNN is not involved.
#include <torch/torch.h>

int main() {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3));
  torch::optim::SGD opt(conv->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    conv(torch::randn({4, 1, 8, 8})).sum().backward();
    opt.step();
  }
  return 0;
}

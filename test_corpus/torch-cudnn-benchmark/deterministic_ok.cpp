// torch-cudnn-benchmark: the program asks for deterministic cuDNN; the auto-tuner would break it.
#include <torch/torch.h>

int main() {
  at::globalContext().setDeterministicCuDNN(true);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3));
  conv->to(torch::kCUDA);
  torch::optim::SGD opt(conv->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    conv(torch::randn({4, 1, 8, 8}, torch::kCUDA)).sum().backward();
    opt.step();
  }
  return 0;
}

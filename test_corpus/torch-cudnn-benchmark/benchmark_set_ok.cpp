// torch-cudnn-benchmark: the auto-tuner is enabled (in a setup helper).
#include <torch/torch.h>

void setup() { at::globalContext().setBenchmarkCuDNN(true); }

int main() {
  setup();
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3));
  conv->to(torch::kCUDA);
  torch::optim::SGD opt(conv->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    conv(torch::randn({4, 1, 8, 8}, torch::kCUDA)).sum().backward();
    opt.step();
  }
  return 0;
}

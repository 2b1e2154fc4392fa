// TORCHLINT-CHECKS: -*,torch-channels-last
// Clean: a CPU-only convolutional model (2-D and 1-D convolutions); the file never uses CUDA.
#include <torch/torch.h>

int main() {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 16, 3));
  torch::nn::Conv1d conv1d(torch::nn::Conv1dOptions(8, 16, 3));
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    conv->forward(torch::randn({4, 3, 32, 32})).sum().backward();
    conv1d->forward(torch::randn({4, 8, 100})).sum().backward();
    opt.step();
  }
}

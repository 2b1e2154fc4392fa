// TORCHLINT-CHECKS: -*,torch-channels-last
// Clean: a 1-D convolutional model on CUDA (3-D tensors: channels_last is for 4-D).
#include <torch/torch.h>

int main() {
  torch::nn::Conv1d conv(torch::nn::Conv1dOptions(8, 16, 3));
  conv->to(torch::kCUDA);
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    conv->forward(torch::randn({4, 8, 100}, torch::kCUDA)).sum().backward();
    opt.step();
  }
}

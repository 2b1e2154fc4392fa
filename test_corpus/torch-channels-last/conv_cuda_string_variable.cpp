// TORCHLINT-CHECKS: -*,torch-channels-last
// A 2-D conv-net on a device built from a string variable that holds "cuda:0".
#include <torch/torch.h>
#include <string>

int main() {
  const std::string device_name = "cuda:0";
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 16, 3));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: this model's Conv2d layers run on CUDA (from line 10) [torch-channels-last]
  torch::Device device(device_name);
  conv->to(device);
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    conv->forward(torch::randn({4, 3, 32, 32}, device)).sum().backward();
    opt.step();
  }
}

// torch-cudnn-benchmark: the device comes from a string variable ("cuda:" + rank, or "cuda" unless
// a flag says otherwise) that becomes a torch::Device.
#include <torch/torch.h>
#include <string>

int main(int argc, char **argv) {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 12) on CUDA (from line 11) and trains (line 16) [torch-cudnn-benchmark]
  std::string name = "cuda:" + std::to_string(argc - 1);
  if (argc > 2)
    name = argv[2];
  torch::Device device(name);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv->to(device);
  torch::optim::SGD opt(conv->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    conv(torch::randn({4, 3, 16, 16}, device)).sum().backward();
    opt.step();
  }
  return 0;
}

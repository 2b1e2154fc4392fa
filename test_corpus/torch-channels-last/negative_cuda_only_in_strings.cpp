// TORCHLINT-CHECKS: -*,torch-channels-last
// Clean: a CPU-only conv-net; "cuda" appears only in strings that never become a device.
#include <torch/torch.h>
#include <iostream>

int main(int argc, char **argv) {
  std::string requested = argc > 1 ? argv[1] : "cpu";
  if (requested == "cuda")
    std::cerr << "this build trains on the CPU only\n";
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 16, 3));
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    conv->forward(torch::randn({4, 3, 32, 32})).sum().backward();
    opt.step();
  }
}

// TORCHLINT-CHECKS: -*,torch-amp
// A float32 CUDA training loop whose device is built from "cuda:0" (the CUDA arm of a
// conditional whose first arm is "cpu"): the same answer to "does this program use CUDA" as every
// other check.
#include <torch/torch.h>

int main(int argc, char **) {
  torch::Device device(argc > 1 ? "cpu" : "cuda:0");
  torch::nn::Linear net(16, 4);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({8, 16}, device)).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:55: warning: this CUDA training loop (CUDA from line 8) computes in float32 [torch-amp]
    opt.step();
  }
}

// torch-cudnn-benchmark look-alike of error_elsewhere.cpp: the cuDNN set-up itself sits in code
// with errors (its argument comes from a configuration library whose header is missing), so the
// call is not seen as one; the code with errors names setBenchmarkCuDNN, and the check stays quiet.
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: cfglib/config.h
#include <torch/torch.h>
#include "cfglib/config.h"

int main() {
  auto cfg = cfglib::load("train.yaml");
  at::globalContext().setBenchmarkCuDNN(cfg["cudnn_benchmark"].as<bool>());
  torch::Device device(torch::kCUDA);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv->to(device);
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto loss = conv->forward(torch::randn({4, 3, 32, 32}, device)).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// torch-cudnn-benchmark: a conv-net trained on CUDA without the cuDNN auto-tuner.
// Fixes: the whole <case>.fixed.cpp, not inline CHECK-FIXES: the fix inserts a statement before
// the body's first statement, so a CHECK-FIXES comment at the top of the body would itself be the
// line the insertion follows; the whole file shows where the statement lands.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).bias(false)));
    fc = register_module("fc", torch::nn::Linear(8 * 26 * 26, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc(torch::relu(conv(x)).flatten(1)); }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::Linear fc{nullptr};
};

void train(std::shared_ptr<Net> net, torch::optim::Optimizer &opt) {
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 1, 28, 28}, torch::TensorOptions().device(torch::kCUDA));
    opt.zero_grad();
    net->forward(x).sum().backward();
    opt.step();
  }
}

int main() {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 9) on CUDA (from line 19) and trains (line 21) without the cuDNN auto-tuner [torch-cudnn-benchmark]
  auto net = std::make_shared<Net>();
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), 0.01);
  train(net, opt);
  return 0;
}

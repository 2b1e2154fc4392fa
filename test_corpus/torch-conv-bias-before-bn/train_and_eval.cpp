// torch-conv-bias-before-bn: a program that resumes from a checkpoint, trains and evaluates is a
// training program: eval() and torch::load alone do not make it inference-only (look-alike of
// inference_only_ok.cpp). BatchNorm in training mode subtracts the batch mean and cancels the bias.
#include <torch/torch.h>
#include <iostream>

namespace nn = torch::nn;

struct NetImpl : nn::Module {
  nn::Sequential features{nullptr};
  NetImpl() {
    features = register_module("features", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 16, 3).padding(1)),
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: Conv2d with bias feeding BatchNorm2d: in the Sequential the next module is BatchNorm2d (line 15), which subtracts the per-channel mean and cancels the bias; the bias costs a kernel, its gradient and optimizer state for nothing: build the conv with .bias(false) [torch-conv-bias-before-bn]
    // CHECK-FIXES: nn::Conv2d(nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)),
                                                           nn::BatchNorm2d(16), nn::ReLU()));
  }
  torch::Tensor forward(torch::Tensor x) { return features->forward(x).mean({2, 3}); }
};
TORCH_MODULE(Net);

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  torch::load(net, "checkpoint.pt");
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 10; ++epoch) {
    net->train();
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      auto loss = net(torch::randn({8, 3, 32, 32}, device)).pow(2).mean();
      loss.backward();
      opt.step();
    }
    net->eval();
    torch::NoGradGuard no_grad;
    std::cout << net(torch::randn({8, 3, 32, 32}, device)).mean() << "\n";
  }
  torch::save(net, "checkpoint.pt");
}

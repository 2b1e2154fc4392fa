// torch-conv-bias-before-bn: quiet in an inference-only program (issue 25). The network runs only
// in eval mode with loaded weights: BatchNorm normalises with its running statistics, which do not
// cancel the conv's bias (the trained weights hold both), and `.bias(false)` would break loading
// those weights. Nothing in the file trains: no backward(), no optimizer, no Module::train().
#include <torch/torch.h>
#include <iostream>

namespace nn = torch::nn;

struct NetImpl : nn::Module {
  nn::Sequential features{nullptr};
  nn::Conv2d head{nullptr};
  nn::BatchNorm2d head_bn{nullptr};
  NetImpl() {
    features = register_module(
        "features", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 16, 3).padding(1)), nn::BatchNorm2d(16), nn::ReLU()));
    head = register_module("head", nn::Conv2d(nn::Conv2dOptions(16, 8, 1)));
    head_bn = register_module("head_bn", nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) { return head_bn(head(features->forward(x))).mean({2, 3}); }
};
TORCH_MODULE(Net);

int main(int argc, char **argv) {
  torch::Device device(torch::kCUDA);
  Net net;
  torch::load(net, argc > 1 ? argv[1] : "net.pt");
  net->to(device);
  net->eval();
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 100; ++i) {
    auto out = net(torch::randn({1, 3, 32, 32}, device));
    std::cout << out.argmax(1) << "\n";
  }
}

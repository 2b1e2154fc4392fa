// TORCHLINT-CHECKS: -*,torch-channels-last
// A 2-D convolutional network trained on CUDA in the default NCHW layout.
#include <torch/torch.h>

struct ConvNet : torch::nn::Module {
  ConvNet() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)));
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: this model's Conv2d layers run on CUDA [torch-channels-last]
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1)));
    fc = register_module("fc", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv2->forward(torch::relu(conv1->forward(x))));
    return fc->forward(x.mean({2, 3}));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto net = std::make_shared<ConvNet>();
  net->to(torch::Device("cuda:0"));
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int i = 0; i < 100; ++i) {
    auto x = torch::randn({32, 3, 64, 64}, torch::Device("cuda:0"));
    opt.zero_grad();
    net->forward(x).sum().backward();
    opt.step();
  }
}

// torch-cudnn-benchmark: no convolution at all, only an empty Conv2d holder that is never built
// (a model variant chosen out), and an MLP trained on CUDA: cuDNN's convolution auto-tuner has
// nothing to tune.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  explicit Net(bool with_conv) {
    fc = register_module("fc", torch::nn::Linear(16, 4));
    (void)with_conv; // the conv variant is not built in this program
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Conv2d stem{nullptr};
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto net = std::make_shared<Net>(false);
  net->to(torch::kCUDA);
  torch::optim::Adam opt(net->parameters());
  for (int step = 0; step < 10; ++step) {
    net->forward(torch::randn({8, 16}, torch::kCUDA)).sum().backward();
    opt.step();
  }
  return 0;
}

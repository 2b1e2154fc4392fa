// torch-conv-bias-before-bn, negative (issue 24): the conv's options are given to a function of a
// missing library (typed through synthesised declarations), which may turn the bias off. The
// finding would rest on code torchlint cannot see: nothing is reported for this conv. The rest of
// the file is judged as usual.
// TORCHLINT-MISSING-HEADERS: project/layers.h
#include <torch/torch.h>
#include "project/layers.h"

struct Block : torch::nn::Module {
  Block() {
    auto opts = torch::nn::Conv2dOptions(3, 8, 3).padding(1);
    project::layers::configure(opts);
    conv = register_module("conv", torch::nn::Conv2d(opts));
    bn = register_module("bn", torch::nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(bn(conv(x))); }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
};

int main() {
  auto block = std::make_shared<Block>();
  for (int step = 0; step < 10; ++step) {
    auto y = block->forward(torch::randn({4, 3, 8, 8}));
    project::layers::log_activations(y);
  }
}

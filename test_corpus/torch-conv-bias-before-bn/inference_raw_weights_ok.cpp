// torch-conv-bias-before-bn: quiet in an inference-only program whose weights come from a raw
// file of floats read parameter by parameter, in registration order (a converted darknet or
// Caffe model). The file holds each conv's bias: `.bias(false)` would shift every later parameter
// and misalign the whole load. The program only calls eval() and never trains.
#include <torch/torch.h>
#include <cstdio>
#include <vector>

namespace nn = torch::nn;

struct BlockImpl : nn::Module {
  nn::Conv2d conv{nullptr};
  nn::BatchNorm2d bn{nullptr};
  BlockImpl(int64_t in, int64_t out) {
    conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(in, out, 3).padding(1)));
    bn = register_module("bn", nn::BatchNorm2d(out));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    x = bn->forward(x);
    return torch::leaky_relu(x, 0.1);
  }
};
TORCH_MODULE(Block);

void read_weights(nn::Module &net, std::FILE *f) {
  torch::NoGradGuard no_grad;
  std::vector<float> buf;
  for (auto &p : net.parameters()) {
    buf.resize(p.numel());
    if (std::fread(buf.data(), sizeof(float), buf.size(), f) != buf.size())
      return;
    p.copy_(torch::from_blob(buf.data(), p.sizes()));
  }
}

int main() {
  Block block(3, 32);
  if (std::FILE *f = std::fopen("yolo.weights", "rb")) {
    read_weights(*block, f);
    std::fclose(f);
  }
  block->eval();
  torch::NoGradGuard no_grad;
  for (int frame = 0; frame < 1000; ++frame)
    block(torch::rand({1, 3, 64, 64}));
}

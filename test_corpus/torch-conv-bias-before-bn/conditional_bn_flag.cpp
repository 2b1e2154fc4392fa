// A conv block that ends most layers with BatchNorm and the last one without (`add_bn` chosen at
// construction, as darknet-style YOLO blocks do): `x = conv(x); if (add_bn) { x = bn(x); ... }`.
// Where the flag is set, the BatchNorm cancels the bias; where it is not, the conv's output is the
// block's and needs it: the advice is `.bias(!add_bn)`, with no fix-it. (Look-alikes:
// conditional_bn_flag_ok.cpp.)
#include <torch/torch.h>

struct ConvBlockImpl : torch::nn::Module {
  ConvBlockImpl(int64_t in, int64_t out, int64_t k, bool add_bn = true)
      : conv(torch::nn::Conv2dOptions(in, out, k).padding(k / 2)), bn(out), add_bn(add_bn),
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: Conv2d with bias feeding BatchNorm2d when 'add_bn' is set: its output at line 18 goes into BatchNorm2d (line 21) under `if (add_bn)`, which subtracts the per-channel mean and cancels the bias; there the bias costs a kernel, its gradient and optimizer state for nothing: build the conv with .bias(!add_bn) from the value that sets 'add_bn' (the bias is needed only where no BatchNorm follows) [torch-conv-bias-before-bn]
        act(torch::nn::LeakyReLUOptions().negative_slope(0.1)) {
    register_module("conv", conv);
    register_module("bn", bn);
    register_module("act", act);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    // CHECK-NOTES: :[[@LINE-1]]:9: note: the convolution's output feeds BatchNorm2d here when 'add_bn' is set [torch-conv-bias-before-bn]
    if (add_bn) {
      x = bn(x);
      x = act(x);
    }
    return x;
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
  bool add_bn = true;
  torch::nn::LeakyReLU act;
};
TORCH_MODULE(ConvBlock);

int main() {
  ConvBlock stem(3, 16, 3), head(16, 8, 1, /*add_bn=*/false);
  torch::optim::SGD opt(stem->parameters(), 0.01);
  auto loss = head(stem(torch::randn({2, 3, 32, 32}))).mean();
  loss.backward();
  opt.step();
}

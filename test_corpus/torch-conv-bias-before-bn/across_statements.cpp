// The conv's output reaches the BatchNorm through a local (`x = conv(x); x = bn(x);`), with the
// options built by a helper that leaves bias at its default (true). Reported at the conv's
// construction, where the fix goes, with a note at the use that feeds the BatchNorm.
#include <torch/torch.h>

torch::nn::Conv2dOptions conv_options(int64_t in, int64_t out, int64_t k) {
  return torch::nn::Conv2dOptions(in, out, k).padding(k / 2);
}

struct Stem : torch::nn::Module {
  Stem() {
    conv = register_module("conv", torch::nn::Conv2d(conv_options(3, 16, 3)));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: Conv2d with bias feeding BatchNorm2d: its output at line 17 goes straight into BatchNorm2d (line 19) [torch-conv-bias-before-bn]
    bn = register_module("bn", torch::nn::BatchNorm2d(16));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    // CHECK-NOTES: :[[@LINE-1]]:9: note: the convolution's output feeds BatchNorm2d here [torch-conv-bias-before-bn]
    x = bn->forward(x);
    return torch::relu(x);
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
};

struct Head : torch::nn::Module {
  Head() : conv(conv_options(16, 32, 1)), bn(32) {
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: Conv2d with bias feeding BatchNorm2d: its output at line 33 goes straight into BatchNorm2d (line 35) [torch-conv-bias-before-bn]
    register_module("conv", conv);
    register_module("bn", bn);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto y = conv(x);
    // CHECK-NOTES: :[[@LINE-1]]:14: note: the convolution's output feeds BatchNorm2d here [torch-conv-bias-before-bn]
    return bn(y);
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
};

int main() {
  Stem stem;
  Head head;
  auto y = head.forward(stem.forward(torch::randn({1, 3, 8, 8})));
  return y.numel() > 0;
}

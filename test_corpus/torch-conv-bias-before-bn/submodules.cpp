// torch-conv-bias-before-bn: registered submodules used as bn(conv(x)) in forward: reported at the
// conv's construction, where the fix goes, with a note at the use that feeds the BatchNorm.
#include <torch/torch.h>

struct Block : torch::nn::Module {
  Block(int64_t in, int64_t out) {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: Conv2d with bias feeding BatchNorm2d: its output at line 17 goes straight into BatchNorm2d (line 17) [torch-conv-bias-before-bn]
    // CHECK-FIXES: conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1).bias(false)));
    bn = register_module("bn", torch::nn::BatchNorm2d(out));
    down = register_module("down", torch::nn::Conv2d(out, out, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: Conv2d with bias feeding BatchNorm2d: its output at line 19 goes straight into BatchNorm2d (line 19) [torch-conv-bias-before-bn]
    // CHECK-FIXES: down = register_module("down", torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 1).bias(false)));
    down_bn = register_module("down_bn", torch::nn::BatchNorm2d(out));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn(conv(x)));
    // CHECK-NOTES: :[[@LINE-1]]:24: note: the convolution's output feeds BatchNorm2d here [torch-conv-bias-before-bn]
    return torch::relu(down_bn->forward(down->forward(x)));
    // CHECK-NOTES: :[[@LINE-1]]:41: note: the convolution's output feeds BatchNorm2d here [torch-conv-bias-before-bn]
  }
  torch::nn::Conv2d conv{nullptr}, down{nullptr};
  torch::nn::BatchNorm2d bn{nullptr}, down_bn{nullptr};
};

int main() {
  auto block = std::make_shared<Block>(3, 8);
  auto y = block->forward(torch::randn({1, 3, 8, 8}));
  (void)y;
  return 0;
}

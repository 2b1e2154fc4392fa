// Look-alikes across statements: the conv's output is read again after the BatchNorm (a residual),
// goes through an activation first, is overwritten by something else before the BatchNorm, or the
// conv has no bias. The bias is not dead in any of them.
#include <torch/torch.h>

torch::nn::Conv2dOptions conv_options(int64_t in, int64_t out) { return torch::nn::Conv2dOptions(in, out, 3).padding(1); }

struct Residual : torch::nn::Module {
  Residual() {
    conv = register_module("conv", torch::nn::Conv2d(conv_options(8, 8)));
    bn = register_module("bn", torch::nn::BatchNorm2d(8));
    conv2 = register_module("conv2", torch::nn::Conv2d(conv_options(8, 8)));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(8));
    conv3 = register_module("conv3", torch::nn::Conv2d(conv_options(8, 8)));
    bn3 = register_module("bn3", torch::nn::BatchNorm2d(8));
    conv4 = register_module("conv4", torch::nn::Conv2d(conv_options(8, 8).bias(false)));
    bn4 = register_module("bn4", torch::nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto h = conv(x);
    auto n = bn(h);
    auto r = n + h; // h read again: the bias reaches the output
    auto a = conv2(r);
    a = torch::relu(a); // an activation before the BatchNorm: the bias shifts what relu clips
    a = bn2(a);
    auto b = conv3(a);
    b = a * 2; // overwritten before the BatchNorm reads it
    b = bn3(b);
    auto c = conv4(b);
    c = bn4(c);
    return c;
  }
  torch::nn::Conv2d conv{nullptr}, conv2{nullptr}, conv3{nullptr}, conv4{nullptr};
  torch::nn::BatchNorm2d bn{nullptr}, bn2{nullptr}, bn3{nullptr}, bn4{nullptr};
};

int main() {
  Residual m;
  return m.forward(torch::randn({1, 8, 4, 4})).numel() > 0;
}

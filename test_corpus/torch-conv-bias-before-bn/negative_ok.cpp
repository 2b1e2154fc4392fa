// torch-conv-bias-before-bn: negatives. Something between conv and BatchNorm, bias already off
// or chosen at run time, a conv whose output is also used elsewhere, Linear + BatchNorm1d (looks
// alike), options from an unknown caller or shared by reference, and push_back calls that are not adjacent.
#include <torch/torch.h>

namespace nn = torch::nn;

// Options from an unknown caller.
nn::Sequential block(const nn::Conv2dOptions &o, int64_t out) {
  return nn::Sequential(nn::Conv2d(o), nn::BatchNorm2d(out));
}

struct Residual : nn::Module {
  Residual() {
    conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(8, 8, 3).padding(1)));
    bn = register_module("bn", nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = conv(x);
    return bn(conv(x)) + y; // the conv's output is also used without the BatchNorm
  }
  nn::Conv2d conv{nullptr};
  nn::BatchNorm2d bn{nullptr};
};

struct Activated : nn::Module {
  Activated() {
    conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(8, 8, 3)));
    bn = register_module("bn", nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) { return bn(torch::relu(conv(x))); }
  nn::Conv2d conv{nullptr};
  nn::BatchNorm2d bn{nullptr};
};

int main(int argc, char **) {
  bool bias = argc > 1;
  nn::Sequential a(nn::Conv2d(nn::Conv2dOptions(3, 8, 3)), nn::ReLU(), nn::BatchNorm2d(8));
  nn::Sequential b(nn::Conv2d(nn::Conv2dOptions(3, 8, 3).bias(false)), nn::BatchNorm2d(8));
  nn::Sequential c(nn::Conv2d(nn::Conv2dOptions(3, 8, 3).bias(bias)), nn::BatchNorm2d(8));
  nn::Sequential d(nn::Linear(8, 8), nn::BatchNorm1d(8));
  // One options object passed by reference to two convs: not followed.
  auto shared = nn::Conv3dOptions(2, 4, 1);
  nn::Sequential e(nn::Conv3d(shared), nn::BatchNorm3d(4));
  nn::Conv3d other(shared);
  nn::Sequential f;
  f->push_back(nn::Conv2d(nn::Conv2dOptions(3, 8, 3)));
  f->push_back(nn::Dropout2d(0.1));
  f->push_back(nn::BatchNorm2d(8));
  auto r = std::make_shared<Residual>();
  auto act = std::make_shared<Activated>();
  (void)r;
  (void)other;
  (void)act;
  return 0;
}

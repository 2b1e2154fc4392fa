// Look-alikes of conditional_bn_flag.cpp, quiet: a flag a method changes after construction (the
// same conv runs with and without the BatchNorm), an if with an else that uses the conv's value
// without BatchNorm, a condition that is a parameter of forward() (chosen per call), and an
// activation before the BatchNorm inside the if.
#include <torch/torch.h>

struct ToggledImpl : torch::nn::Module {
  ToggledImpl() : conv(torch::nn::Conv2dOptions(3, 8, 3)), bn(8) {
    register_module("conv", conv);
    register_module("bn", bn);
  }
  void set_norm(bool on) { use_bn = on; }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    if (use_bn) {
      x = bn(x);
    }
    return x;
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
  bool use_bn = true;
};
TORCH_MODULE(Toggled);

struct BranchedImpl : torch::nn::Module {
  BranchedImpl(bool norm) : conv(torch::nn::Conv2dOptions(3, 8, 3)), bn(8), gn(torch::nn::GroupNormOptions(2, 8)), norm(norm) {
    register_module("conv", conv);
    register_module("bn", bn);
    register_module("gn", gn);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    if (norm) {
      x = bn(x);
    } else {
      x = gn(x);
    }
    return x;
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
  torch::nn::GroupNorm gn;
  bool norm;
};
TORCH_MODULE(Branched);

struct PerCallImpl : torch::nn::Module {
  PerCallImpl() : conv(torch::nn::Conv2dOptions(3, 8, 3)), bn(8) {
    register_module("conv", conv);
    register_module("bn", bn);
  }
  torch::Tensor forward(torch::Tensor x, bool normalize) {
    x = conv->forward(x);
    if (normalize) {
      x = bn(x);
    }
    return x;
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
};
TORCH_MODULE(PerCall);

struct ActFirstImpl : torch::nn::Module {
  ActFirstImpl(bool add_bn) : conv(torch::nn::Conv2dOptions(3, 8, 3)), bn(8), add_bn(add_bn) {
    register_module("conv", conv);
    register_module("bn", bn);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv->forward(x);
    if (add_bn) {
      x = torch::relu(x);
      x = bn(x);
    }
    return x;
  }
  torch::nn::Conv2d conv;
  torch::nn::BatchNorm2d bn;
  bool add_bn;
};
TORCH_MODULE(ActFirst);

int main() {
  Toggled t;
  t->set_norm(false);
  Branched b(true);
  PerCall p;
  ActFirst a(true);
  auto in = torch::randn({2, 3, 16, 16});
  auto loss = (t(in) + b(in) + p(in, true) + a(in)).mean();
  torch::optim::SGD opt(t->parameters(), 0.01);
  loss.backward();
  opt.step();
}

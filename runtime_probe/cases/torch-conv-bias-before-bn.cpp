// torch-conv-bias-before-bn: a convolution's bias directly before BatchNorm is cancelled by the
// batch mean (training) and by running_mean's shift (eval): it costs a broadcast add forward and
// a reduction backward and learns nothing. Conv2dOptions(...).bias(false) gives the same outputs.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Net : torch::nn::Module {
  std::vector<torch::nn::Conv2d> convs;
  std::vector<torch::nn::BatchNorm2d> bns;
  Net(bool conv_bias, int64_t width, int64_t depth) {
    int64_t in = 3;
    for (int64_t i = 0; i < depth; ++i) {
      convs.push_back(register_module("conv" + std::to_string(i),
                                      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, width, 3).padding(1).bias(conv_bias))));
      bns.push_back(register_module("bn" + std::to_string(i), torch::nn::BatchNorm2d(width)));
      in = width;
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    for (size_t i = 0; i < convs.size(); ++i)
      x = torch::relu(bns[i]->forward(convs[i]->forward(x)));
    return x.mean({2, 3});
  }
};

struct Common : probe::Variant {
  probe::Ctx ctx;
  std::shared_ptr<Net> net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, targets, out, loss;
  int steps_per_call = 1;

  Common(const probe::Ctx &c, bool conv_bias) : ctx(c) {
    int64_t B = c.size(64, 8, 2), S = c.size(64, 32, 8), W = c.size(64, 32, 8);
    net = std::make_shared<Net>(conv_bias, W, 4);
    // Both variants start from the same conv and BatchNorm weights (the bias starts at 0.1 so
    // that it is not trivially zero).
    torch::manual_seed(21);
    for (auto &conv : net->convs) {
      torch::NoGradGuard no_grad;
      conv->weight.copy_(torch::randn(conv->weight.sizes()) * 0.1);
      if (conv->bias.defined())
        conv->bias.fill_(0.1);
    }
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 22);
    targets = probe::randn({B, W}, c, 23);
  }
  void train_step() {
    out = net->forward(images);
    loss = (out - targets).pow(2).mean();
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}, {"out", out.detach()}};
    for (auto &p : net->named_parameters())
      if (p.key().rfind("conv", 0) != 0 || p.key().find(".weight") != std::string::npos) {
        o.emplace_back(p.key(), p.value().detach());
        o.emplace_back(p.key() + ".grad", p.value().grad());
      }
    for (auto &b : net->named_buffers())
      if (b.key().find("running_var") != std::string::npos) // running_mean includes the bias
        o.emplace_back(b.key(), b.value());
    return o;
  }
};

struct Before : Common {
  explicit Before(const probe::Ctx &c) : Common(c, /*conv_bias=*/true) {}
};
struct After : Common {
  explicit After(const probe::Ctx &c) : Common(c, /*conv_bias=*/false) {}
};

} // namespace

PROBE_CASE("torch-conv-bias-before-bn", "conv-bn-relu-stack",
           "4 x (Conv2d 3x3 -> BatchNorm2d -> ReLU), training; before: Conv2d with bias; after: bias(false)",
           Before, After, (probe::Tolerance{1e-4, 1e-5, "fp32: the bias cancels up to rounding"}));

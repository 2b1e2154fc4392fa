// torch-conv-bias-before-bn (fix-it case): a convolution's bias directly before BatchNorm is
// cancelled by the batch mean (training) and by running_mean's shift (eval): it costs a broadcast
// add forward and a reduction backward, and learns nothing. The "after" is this file after
// `torchlint --fix --checks=-*,torch-conv-bias-before-bn`, which builds the convs with
// `.bias(false)`.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

/// A ResNet basic block: conv-bn-relu, conv-bn, plus the identity.
struct BlockImpl : torch::nn::Module {
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  explicit BlockImpl(int64_t width) {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(width, width, 3).padding(1)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(width));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(width, width, 3).padding(1)));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(width));
  }
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = torch::relu(bn1->forward(conv1->forward(x)));
    return torch::relu(x + bn2->forward(conv2->forward(y)));
  }
};
TORCH_MODULE(Block);

struct NetImpl : torch::nn::Module {
  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d stem_bn{nullptr};
  Block block1{nullptr}, block2{nullptr};
  NetImpl(int64_t width) {
    stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, width, 3).padding(1)));
    stem_bn = register_module("stem_bn", torch::nn::BatchNorm2d(width));
    block1 = register_module("block1", Block(width));
    block2 = register_module("block2", Block(width));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(stem_bn->forward(stem->forward(x)));
    x = block2->forward(block1->forward(x));
    return x.mean({2, 3});
  }
};
TORCH_MODULE(Net);

struct Step : probe::Variant {
  probe::Ctx ctx;
  Net net{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, targets, out, loss;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 8, 2), S = c.size(64, 32, 8), W = c.size(64, 32, 8);
    net = Net(W);
    // Before and after start from the same conv weights: the before's bias parameters would shift
    // the RNG stream of the default initialisation. The bias starts at 0.1, not trivially zero.
    torch::manual_seed(21);
    for (auto &m : net->modules(/*include_self=*/false))
      if (auto *conv = m->as<torch::nn::Conv2d>()) {
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
  /// Everything but the conv biases (which only the before has) and running_mean (which includes
  /// them); the BatchNorm weights and biases, conv weights, their gradients and running_var must agree.
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}, {"out", out.detach()}};
    for (auto &m : net->named_modules("", /*include_self=*/false)) {
      bool conv = m.value()->as<torch::nn::Conv2d>() != nullptr;
      for (auto &p : m.value()->named_parameters(/*recurse=*/false))
        if (!conv || p.key() == "weight") {
          o.emplace_back(m.key() + "." + p.key(), p.value().detach());
          o.emplace_back(m.key() + "." + p.key() + ".grad", p.value().grad());
        }
      for (auto &b : m.value()->named_buffers(/*recurse=*/false))
        if (b.key() == "running_var")
          o.emplace_back(m.key() + "." + b.key(), b.value());
    }
    return o;
  }
};

} // namespace

PROBE_FIXIT_CASE("torch-conv-bias-before-bn", "resnet-blocks",
                 "stem + 2 ResNet basic blocks (Conv2d 3x3 -> BatchNorm2d), training; before: Conv2d with bias; "
                 "after: torchlint's fix-it, .bias(false)",
                 Step, (probe::Tolerance{1e-4, 1e-5, "fp32: the bias cancels up to rounding"}));

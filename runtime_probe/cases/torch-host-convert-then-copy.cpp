// torch-host-convert-then-copy: a conv step on uint8 images that converts them to float and scales
// them on the host, then copies the float tensor to the device (before), against copying the
// uint8 tensor and converting on the device (after, the check's fix-it applied by hand).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <cstdint>
#include <vector>

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  std::vector<uint8_t> pixels;
  int64_t B, S;
  torch::Tensor y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    B = c.size(64, 16, 2);
    S = c.size(128, 64, 16);
    net = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)),
                                torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(),
                                torch::nn::Linear(8, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    auto img = torch::randint(0, 256, {B, S, S, 3}, torch::TensorOptions().dtype(torch::kByte));
    pixels.assign(img.data_ptr<uint8_t>(), img.data_ptr<uint8_t>() + img.numel());
    y = probe::randint(0, 10, {B}, c, 2);
  }
  void train(const torch::Tensor &x) {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto raw = torch::from_blob(pixels.data(), {B, S, S, 3}, torch::kByte);
      auto x = raw.permute({0, 3, 1, 2}).to(torch::kFloat).div(255).to(ctx.device);
      train(x);
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto raw = torch::from_blob(pixels.data(), {B, S, S, 3}, torch::kByte);
      auto x = raw.to(ctx.device).permute({0, 3, 1, 2}).to(torch::kFloat).div(255);
      train(x);
    }
  }
};

} // namespace

PROBE_CASE("torch-host-convert-then-copy", "uint8-images",
           "conv step on uint8 images; before: .to(kFloat).div(255) on the host, then .to(device); after: the "
           "uint8 tensor copied, converted and scaled on the device",
           Before, After, (probe::Tolerance{0, 0, "bitwise: exact uint8 -> float conversion, IEEE division", 1e-5, 1e-6,
                             "fp32: CUDA divides by a scalar as a product with its reciprocal (1 ulp off the host's quotient), "
                             "which the gradients carry"}));

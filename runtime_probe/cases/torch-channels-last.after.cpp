// torch-channels-last (split case, after; the before and the reason for two files are in
// torch-channels-last.cpp): the same ConvNet training with the conv weights and the input in
// MemoryFormat::ChannelsLast.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

/// probe::ConvNet, written out here: torch-channels-last reports the first Conv2d of the file,
/// which must be in this file, not in a header.
torch::nn::Sequential convnet(int64_t width, int64_t num_classes) {
  torch::nn::Sequential net;
  int64_t in = 3;
  for (int64_t w : {width, width * 2, width * 2}) {
    net->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, w, 3).padding(1).bias(false)));
    net->push_back(torch::nn::BatchNorm2d(w));
    net->push_back(torch::nn::ReLU());
    net->push_back(torch::nn::MaxPool2d(2));
    in = w;
  }
  net->push_back(torch::nn::AdaptiveAvgPool2d(1));
  net->push_back(torch::nn::Flatten());
  net->push_back(torch::nn::Linear(in, num_classes));
  return net;
}

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net = convnet(64, 10);
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(128, 16, 4), S = c.size(128, 32, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 65);
    labels = probe::randint(0, 10, {B}, c, 66);
  }
  void train_on(const torch::Tensor &x) {
    loss = torch::nn::functional::cross_entropy(net->forward(x), labels);
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

struct After : Common {
  explicit After(const probe::Ctx &c) : Common(c) {
    torch::NoGradGuard no_grad;
    for (auto &p : net->parameters()) // the C++ Module::to() takes no memory format
      if (p.dim() == 4)
        p.set_data(p.data().contiguous(torch::MemoryFormat::ChannelsLast));
    images = images.contiguous(torch::MemoryFormat::ChannelsLast);
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_on(images);
  }
};

} // namespace

PROBE_AFTER("torch-channels-last", "convnet-nhwc", After);

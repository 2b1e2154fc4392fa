// torch-channels-last (split case, before): convolutions on NCHW tensors make cuDNN (and oneDNN)
// transpose to NHWC internally for tensor-core kernels; keeping the model and input in
// channels_last avoids it. The after, which converts the conv weights and the input to
// MemoryFormat::ChannelsLast, is in torch-channels-last.after.cpp: torch-channels-last judges the
// whole file ("never names MemoryFormat::ChannelsLast"), so an after in this file would silence it
// for the before too.
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

} // namespace

// The after file includes this one with PROBE_SPLIT_AFTER defined, for the shared code above.
#ifndef PROBE_SPLIT_AFTER
namespace {

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_on(images);
  }
};

} // namespace

PROBE_BEFORE("torch-channels-last", "convnet-nhwc",
             "ConvNet training; before: NCHW (contiguous) weights and input; after: channels_last", Before,
             (probe::Tolerance{1e-3, 1e-4, "fp32, other convolution kernels"}));
#endif

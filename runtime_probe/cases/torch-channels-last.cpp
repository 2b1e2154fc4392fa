// torch-channels-last: convolutions on NCHW tensors make cuDNN (and oneDNN) transpose to NHWC
// internally for tensor-core kernels; keeping the model and input in channels_last avoids it.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{64, 10};
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

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_on(images);
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

PROBE_CASE("torch-channels-last", "convnet-nhwc",
           "ConvNet training; before: NCHW (contiguous) weights and input; after: channels_last",
           Before, After, (probe::Tolerance{1e-3, 1e-4, "fp32, other convolution kernels"}));

// torch-channels-last (split case, after; the before and the reason for two files are in
// torch-channels-last.cpp): the same ConvNet training with the conv weights and the input in
// MemoryFormat::ChannelsLast.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)

#define PROBE_SPLIT_AFTER 1
#include "torch-channels-last.cpp" // the shared code: model, data, training step (struct Common)

namespace {

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

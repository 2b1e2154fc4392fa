// torch-from-blob-pinned: a step that wraps a host batch with from_blob(..., pinned_memory(true))
// and copies it with non_blocking (before): from_blob pins nothing, so the copy comes from pageable
// memory and is synchronous. After: a pinned staging buffer allocated once, filled with copy_(),
// then copied with non_blocking.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <vector>

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  std::vector<float> host;
  int64_t B, D;
  torch::Tensor y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    B = c.size(256, 64, 8);
    D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    auto h = torch::randn({B, D});
    host.assign(h.data_ptr<float>(), h.data_ptr<float>() + h.numel());
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
      auto x = torch::from_blob(host.data(), {B, D}, torch::TensorOptions().pinned_memory(true));
      train(x.to(ctx.device, /*non_blocking=*/true));
    }
  }
};

struct After : Common {
  torch::Tensor staging;
  explicit After(const probe::Ctx &c) : Common(c) {
    // Pinned memory needs a CUDA build and device; on the CPU the probe stages in plain memory.
    staging = torch::empty({B, D}, torch::TensorOptions().pinned_memory(c.cuda()));
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      staging.copy_(torch::from_blob(host.data(), {B, D}));
      train(staging.to(ctx.device, /*non_blocking=*/true));
    }
  }
};

} // namespace

PROBE_CASE("torch-from-blob-pinned", "from-blob-staging",
           "MLP step fed from a host array; before: from_blob(..., pinned_memory(true)) copied non_blocking "
           "(pageable: synchronous); after: a pinned staging buffer allocated once, copy_() into it, then the "
           "non_blocking copy",
           Before, After, (probe::Tolerance{0, 0, "bitwise: the same values"}));

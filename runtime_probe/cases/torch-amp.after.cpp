// torch-amp (split case, after; the before and the reason for two files are in torch-amp.cpp):
// the same ConvNet training step with the forward pass and loss under autocast, bf16.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

#include <ATen/autocast_mode.h>

namespace {

/// Autocast for the device's type, bf16, restoring the previous state (the probe runs both
/// variants in one process).
struct Autocast {
  c10::DeviceType type;
  bool was_enabled;
  at::ScalarType old_dtype;
  explicit Autocast(c10::DeviceType t) : type(t) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    was_enabled = at::autocast::is_autocast_enabled(type);
    old_dtype = at::autocast::get_autocast_dtype(type);
    at::autocast::set_autocast_dtype(type, at::kBFloat16);
    at::autocast::set_autocast_enabled(type, true);
#else
    if (type == c10::DeviceType::CUDA) {
      was_enabled = at::autocast::is_enabled();
      old_dtype = at::autocast::get_autocast_gpu_dtype();
      at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
      at::autocast::set_enabled(true);
    } else {
      was_enabled = at::autocast::is_cpu_enabled();
      old_dtype = at::autocast::get_autocast_cpu_dtype();
      at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
      at::autocast::set_cpu_enabled(true);
    }
#endif
    at::autocast::increment_nesting();
  }
  ~Autocast() {
    if (at::autocast::decrement_nesting() == 0)
      at::autocast::clear_cache();
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_enabled(type, was_enabled);
    at::autocast::set_autocast_dtype(type, old_dtype);
#else
    if (type == c10::DeviceType::CUDA) {
      at::autocast::set_enabled(was_enabled);
      at::autocast::set_autocast_gpu_dtype(old_dtype);
    } else {
      at::autocast::set_cpu_enabled(was_enabled);
      at::autocast::set_autocast_cpu_dtype(old_dtype);
    }
#endif
  }
};

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
    images = probe::randn({B, 3, S, S}, c, 63);
    labels = probe::randint(0, 10, {B}, c, 64);
  }
  void update() {
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.", /*grads=*/false);
    return o;
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      {
        Autocast autocast(ctx.device.type());
        loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
      }
      update();
    }
  }
};

} // namespace

PROBE_AFTER("torch-amp", "autocast-bf16", After);

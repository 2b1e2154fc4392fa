// torch-amp (split case, after; the before and the reason for two files are in torch-amp.cpp):
// the same ConvNet training step with the forward pass and loss under autocast, bf16.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include <ATen/autocast_mode.h>

#define PROBE_SPLIT_AFTER 1
#include "torch-amp.cpp" // the shared code: model, data, training step (struct Common)

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

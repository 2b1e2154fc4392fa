// torch-data-parallel: torch::nn::parallel::data_parallel replicates the module to every device,
// scatters the input and gathers the output on every call (single process, GIL-free but
// serialised on one host thread); DistributedDataParallel or a plain forward on one device per
// process avoids it. The probe has one device, where data_parallel takes its single-device path
// (module->to(device), input.to(device) and output.to(device) per call): this measures that
// overhead only; the replicate/scatter/gather cost needs 2+ GPUs.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

// data_parallel.h includes c10/cuda headers; a CPU-only libtorch (Debian's 1.13) ships them without
// the generated cuda_cmake_macros.h, so the header does not compile there. Then "before" calls a
// copy of data_parallel's single-device path (libtorch 1.13, torch/nn/parallel/data_parallel.h),
// which is the only path one device takes anyway.
// probe:lint-quiet 1: against 1.13 the before calls that stand-in, a user function that only shares
// the name, so torch-data-parallel rightly stays quiet; the case is linted against libtorch 2.x
// headers for it (ctest probe_cases_lint_torch2).
#if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>)
#include <torch/nn/parallel/data_parallel.h>
using torch::nn::parallel::data_parallel;
#else
namespace {
template <typename ModuleType>
torch::Tensor data_parallel(ModuleType module, torch::Tensor input, std::vector<torch::Device> devices) {
  TORCH_CHECK(devices.size() == 1, "the probe's data_parallel stand-in handles one device");
  torch::Device output_device = devices.front();
  module->to(devices.front());
  input = input.to(devices.front());
  return module->forward(std::move(input)).to(output_device);
}
} // namespace
#endif

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 52);
    y = probe::randint(0, 10, {B}, c, 53);
  }
  void update(const torch::Tensor &logits) {
    loss = torch::nn::functional::cross_entropy(logits, y);
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
    std::vector<torch::Device> devices{ctx.device};
    for (int s = 0; s < steps_per_call; ++s)
      update(data_parallel(net, x, devices));
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      update(net->forward(x));
  }
};

} // namespace

PROBE_CASE("torch-data-parallel", "data-parallel-forward",
           "MLP step; before: torch::nn::parallel::data_parallel(net, x, devices); after: net->forward(x) "
           "(one device: measures data_parallel's per-call overhead only)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same forward on one device"}));

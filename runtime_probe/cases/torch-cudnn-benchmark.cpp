// torch-cudnn-benchmark: a convolutional training loop with fixed input shapes and cuDNN's
// autotuner off uses cuDNN's heuristic algorithm choice; at::globalContext().setBenchmarkCuDNN(true)
// times the candidates once per shape and keeps the fastest. No effect on the CPU (1x).
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
    int64_t B = c.size(64, 8, 2), S = c.size(128, 32, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 25);
    labels = probe::randint(0, 10, {B}, c, 26);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
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

/// The probe runs both variants in one process: each sets the flag for its own steps and restores
/// it (a program would set it once at start-up).
struct BenchmarkFlag {
  bool saved;
  explicit BenchmarkFlag(bool on) : saved(at::globalContext().benchmarkCuDNN()) {
    at::globalContext().setBenchmarkCuDNN(on);
  }
  ~BenchmarkFlag() { at::globalContext().setBenchmarkCuDNN(saved); }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    BenchmarkFlag flag(false);
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    BenchmarkFlag flag(true);
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
};

} // namespace

PROBE_CASE("torch-cudnn-benchmark", "convnet-fixed-shapes",
           "ConvNet training with fixed shapes; before: cuDNN benchmark off; after: "
           "at::globalContext().setBenchmarkCuDNN(true)",
           Before, After, (probe::Tolerance{1e-3, 1e-4, "fp32, cuDNN may pick other algorithms"}));

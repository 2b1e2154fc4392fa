// torch-non-blocking-copy: copying a pinned host batch with .to(device) blocks the host until the
// copy is done; .to(device, /*non_blocking=*/true) queues it and returns, so the host goes on
// queueing the step. On the CPU both are no-ops (1x).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  std::vector<torch::Tensor> host_x, host_y; // host batches, pinned when there is a GPU
  torch::Tensor loss;
  size_t next = 0;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(512, 64, 8), D = c.size(4096, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, 1024), torch::nn::ReLU(), torch::nn::Linear(1024, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    torch::manual_seed(24);
    for (int i = 0; i < 4; ++i) {
      torch::Tensor x = torch::randn({B, D}), y = torch::randint(0, 10, {B}, torch::kLong);
      host_x.push_back(c.cuda() ? x.pin_memory() : x);
      host_y.push_back(c.cuda() ? y.pin_memory() : y);
    }
  }
  void train_on(const torch::Tensor &x, const torch::Tensor &y) {
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
      size_t i = next++ % host_x.size();
      train_on(host_x[i].to(ctx.device), host_y[i].to(ctx.device));
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      size_t i = next++ % host_x.size();
      train_on(host_x[i].to(ctx.device, /*non_blocking=*/true), host_y[i].to(ctx.device, /*non_blocking=*/true));
    }
  }
};

} // namespace

PROBE_CASE("torch-non-blocking-copy", "pinned-batch-copy",
           "MLP on pinned host batches; before: x.to(device); after: x.to(device, /*non_blocking=*/true)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same data"}));

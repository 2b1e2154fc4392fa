// torch-sync-value-branch: branching on a tensor's value (`if ((norm > max_norm).item<bool>())`)
// makes the host wait for the GPU; the same gradient clipping computed with clamp on the device
// needs no branch and no sync.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  double max_norm = 0.5;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::Tanh(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.1));
    x = probe::randn({B, D}, c, 12);
    y = probe::randint(0, 10, {B}, c, 13);
  }
  torch::Tensor backward_and_norm() {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    std::vector<torch::Tensor> norms;
    for (const auto &p : net->parameters())
      norms.push_back(p.grad().norm());
    return torch::stack(norms).norm();
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
      torch::Tensor norm = backward_and_norm();
      if ((norm > max_norm).item<bool>()) { // the host waits for the backward pass
        torch::Tensor scale = max_norm / norm;
        for (auto &p : net->parameters())
          p.grad().mul_(scale);
      }
      opt->step();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor norm = backward_and_norm();
      torch::Tensor scale = torch::clamp_max(max_norm / norm, 1.0); // 1.0 when no clipping is needed
      for (auto &p : net->parameters())
        p.grad().mul_(scale);
      opt->step();
    }
  }
};

} // namespace

PROBE_CASE("torch-sync-value-branch", "clip-grad-branch",
           "gradient clipping; before: if ((norm > max_norm).item<bool>()) scale the grads; after: scale by "
           "clamp_max(max_norm / norm, 1) without a branch",
           Before, After, (probe::Tolerance{0, 0, "bitwise: x * 1.0 == x, same scale otherwise"}));

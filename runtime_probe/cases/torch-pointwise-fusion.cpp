// torch-pointwise-fusion: a chain of elementwise operators (here the tanh approximation of GELU
// written out) launches one kernel and writes one temporary per operator; the fused operator
// (torch::gelu(x, "tanh")) reads and writes once, forward and backward.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <cmath>

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(8192, 4096, 16), D = c.size(1024, 64, 16); // CPU: narrow, so the pointwise work shows next to the matmuls
    fc1 = torch::nn::Linear(D, 4 * D);
    fc2 = torch::nn::Linear(4 * D, D);
    fc1->to(c.device);
    fc2->to(c.device);
    std::vector<torch::Tensor> params = fc1->parameters();
    for (auto &p : fc2->parameters())
      params.push_back(p);
    opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 68);
  }
  void update(const torch::Tensor &h) {
    loss = fc2->forward(h).pow(2).mean();
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *fc1, "fc1.");
    probe::addParameters(o, *fc2, "fc2.");
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    const double k = std::sqrt(2.0 / M_PI);
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor a = fc1->forward(x);
      torch::Tensor h = 0.5 * a * (1 + torch::tanh(k * (a + 0.044715 * a.pow(3)))); // 7 kernels
      update(h);
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      update(torch::gelu(fc1->forward(x), "tanh"));
  }
};

} // namespace

PROBE_CASE("torch-pointwise-fusion", "gelu-written-out",
           "MLP block; before: GELU (tanh) written as 7 elementwise ops; after: torch::gelu(x, \"tanh\")",
           Before, After, (probe::Tolerance{1e-4, 1e-5, "fp32: same formula, fused evaluation"}));

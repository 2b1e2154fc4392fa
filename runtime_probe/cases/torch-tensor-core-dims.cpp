// torch-tensor-core-dims: a Linear layer whose feature sizes are not multiples of 8 cannot use
// tensor cores (fp16/bf16; TF32) at full rate. Padding the hidden size to a multiple of 8 with
// zero weights computes the same function: the padded units are always 0, get zero gradients and
// stay 0. On CUDA the case runs in bf16 (where tensor cores apply); on the CPU in fp32. The hidden
// size is a compile-time constant, as the check requires, and the same on every device.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <cmath>

namespace {

constexpr int64_t kHidden = 4097;

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, logits, loss;
  int steps_per_call = 1;

  /// Takes the layers (built by Before or After), gives their first kHidden units the same
  /// weights in both variants and zeros the padding, moves them to the device in the case's dtype.
  Common(const probe::Ctx &c, torch::nn::Linear l1, torch::nn::Linear l2) : ctx(c), fc1(l1), fc2(l2) {
    int64_t B = c.size(4096, 64, 16), D = fc1->options.in_features();
    torch::ScalarType dt = c.cuda() ? torch::kBFloat16 : torch::kFloat;
    torch::manual_seed(60);
    {
      torch::NoGradGuard no_grad;
      for (torch::Tensor t : {fc1->weight, fc1->bias, fc2->weight, fc2->bias})
        t.zero_();
      fc1->weight.slice(0, 0, kHidden).copy_(torch::randn({kHidden, D}) / std::sqrt(double(D)));
      fc1->bias.slice(0, 0, kHidden).copy_(torch::randn({kHidden}) * 0.01);
      fc2->weight.slice(1, 0, kHidden).copy_(torch::randn({fc2->options.out_features(), kHidden}) / std::sqrt(double(kHidden)));
    }
    fc1->to(c.device, dt);
    fc2->to(c.device, dt);
    std::vector<torch::Tensor> params = fc1->parameters();
    for (auto &p : fc2->parameters())
      params.push_back(p);
    opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 61).to(dt);
    y = probe::randint(0, fc2->options.out_features(), {B}, c, 62);
  }
  void train_step() {
    torch::Tensor h = torch::relu(fc1->forward(x));
    logits = fc2->forward(h);
    loss = torch::nn::functional::cross_entropy(logits.to(torch::kFloat), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
  probe::Outputs outputs() override { // the real (unpadded) units only
    return {{"loss", loss.detach()},
            {"logits", logits.detach()},
            {"fc1.weight", fc1->weight.detach().slice(0, 0, kHidden)},
            {"fc1.weight.grad", fc1->weight.grad().slice(0, 0, kHidden)},
            {"fc1.bias.grad", fc1->bias.grad().slice(0, 0, kHidden)},
            {"fc2.weight", fc2->weight.detach().slice(1, 0, kHidden)},
            {"fc2.weight.grad", fc2->weight.grad().slice(1, 0, kHidden)}};
  }
};

int64_t inputs(const probe::Ctx &c) { return c.size(1024, 256, 32); }
int64_t classes(const probe::Ctx &c) { return c.size(1000, 100, 10); }

struct Before : Common {
  explicit Before(const probe::Ctx &c)
      : Common(c, torch::nn::Linear(inputs(c), kHidden), torch::nn::Linear(kHidden, classes(c))) {}
};

struct After : Common {
  static constexpr int64_t kPadded = (kHidden + 7) / 8 * 8; // 4104
  explicit After(const probe::Ctx &c)
      : Common(c, torch::nn::Linear(inputs(c), kPadded), torch::nn::Linear(kPadded, classes(c))) {}
};

} // namespace

PROBE_CASE("torch-tensor-core-dims", "hidden-not-multiple-of-8",
           "2-layer MLP (bf16 on CUDA, fp32 on CPU); before: Linear layers with hidden size 4097; after: padded "
           "to 4104 with zero weights",
           Before, After, (probe::Tolerance{2e-2, 2e-3, "bf16 on CUDA; fp32 with other blocking on CPU"}));

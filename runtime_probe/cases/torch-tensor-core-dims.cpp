// torch-tensor-core-dims: a Linear layer whose feature sizes are not multiples of 8 cannot use
// tensor cores (fp16/bf16; TF32) at full rate. Padding the hidden size to a multiple of 8 with
// zero weights computes the same function: the padded units are always 0, get zero gradients and
// stay 0. On CUDA the case runs in bf16 (where tensor cores apply); on the CPU in fp32.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

int64_t roundUp8(int64_t n) { return (n + 7) / 8 * 8; }

struct Common : probe::Variant {
  probe::Ctx ctx;
  int64_t H; // the real hidden size
  torch::Tensor w1, b1, w2, b2; // [Hp, D], [Hp], [C, Hp], [C]
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, logits, loss;
  int steps_per_call = 1;

  Common(const probe::Ctx &c, bool pad) : ctx(c) {
    int64_t B = c.size(4096, 256, 16), D = c.size(1024, 512, 32), C = c.size(1000, 100, 10);
    H = c.size(4097, 1001, 21);
    int64_t Hp = pad ? roundUp8(H) : H;
    torch::ScalarType dt = c.cuda() ? torch::kBFloat16 : torch::kFloat;
    torch::manual_seed(60);
    torch::Tensor W1 = torch::randn({H, D}) / std::sqrt(double(D)), W2 = torch::randn({C, H}) / std::sqrt(double(H));
    torch::Tensor B1 = torch::randn({H}) * 0.01, B2 = torch::zeros({C});
    w1 = torch::zeros({Hp, D});
    w1.slice(0, 0, H).copy_(W1);
    b1 = torch::zeros({Hp});
    b1.slice(0, 0, H).copy_(B1);
    w2 = torch::zeros({C, Hp});
    w2.slice(1, 0, H).copy_(W2);
    b2 = B2;
    for (torch::Tensor *p : {&w1, &b1, &w2, &b2})
      *p = p->to(c.device, dt).requires_grad_(true);
    opt = std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{w1, b1, w2, b2}, torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 61).to(dt);
    y = probe::randint(0, C, {B}, c, 62);
  }
  void train_step() {
    torch::Tensor h = torch::relu(torch::nn::functional::linear(x, w1, b1));
    logits = torch::nn::functional::linear(h, w2, b2);
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
            {"w1", w1.detach().slice(0, 0, H)},
            {"w1.grad", w1.grad().slice(0, 0, H)},
            {"b1.grad", b1.grad().slice(0, 0, H)},
            {"w2", w2.detach().slice(1, 0, H)},
            {"w2.grad", w2.grad().slice(1, 0, H)}};
  }
};

struct Before : Common {
  explicit Before(const probe::Ctx &c) : Common(c, false) {}
};
struct After : Common {
  explicit After(const probe::Ctx &c) : Common(c, true) {}
};

} // namespace

PROBE_CASE("torch-tensor-core-dims", "hidden-not-multiple-of-8",
           "2-layer MLP (bf16 on CUDA, fp32 on CPU); before: hidden size 4097 (1001 on CPU); after: padded to a "
           "multiple of 8 with zero weights",
           Before, After, (probe::Tolerance{2e-2, 2e-3, "bf16 on CUDA; fp32 with other blocking on CPU"}));

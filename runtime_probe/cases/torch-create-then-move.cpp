// torch-create-then-move (fix-it case): an attention step that builds its position ids, causal
// mask and bias on the CPU and moves them to the device on every step. The "after" is this file
// after `torchlint --fix --checks=-*,torch-create-then-move` (see probe/Probe.h).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <cmath>

namespace {

struct Step : probe::Variant {
  probe::Ctx ctx;
  int64_t B, T, D;
  torch::nn::Embedding pos_emb{nullptr};
  torch::nn::Linear proj{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor tokens, loss;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    B = c.size(16, 4, 2);
    T = c.size(1024, 256, 16);
    D = c.size(256, 64, 16);
    pos_emb = torch::nn::Embedding(T, D);
    proj = torch::nn::Linear(D, D);
    pos_emb->to(c.device);
    proj->to(c.device);
    std::vector<torch::Tensor> params = pos_emb->parameters();
    for (auto &p : proj->parameters())
      params.push_back(p);
    opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.01));
    tokens = probe::randn({B, T, D}, c, 3);
  }

  void train_step() {
    torch::Tensor pos = torch::arange(T).to(ctx.device);
    torch::Tensor causal = torch::ones({T, T}).to(ctx.device).tril();
    torch::Tensor bias = torch::zeros({D}).to(ctx.device);
    torch::Tensor h = proj->forward(tokens + pos_emb->forward(pos));
    torch::Tensor scores = torch::matmul(h, h.transpose(1, 2)) / std::sqrt(double(D));
    scores = scores.masked_fill(causal == 0, -1e9);
    torch::Tensor out = torch::matmul(torch::softmax(scores, -1), h) + bias;
    opt->zero_grad();
    loss = out.pow(2).mean();
    loss.backward();
    opt->step();
  }

  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }

  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *pos_emb, "pos_emb.");
    probe::addParameters(o, *proj, "proj.");
    return o;
  }
};

} // namespace

PROBE_FIXIT_CASE("torch-create-then-move", "attention-mask-per-step",
                 "causal attention step; before: torch::arange/ones/zeros(...).to(device) every step; after: "
                 "torchlint's fix-it, the device in the factory's TensorOptions",
                 Step, (probe::Tolerance{0, 0, "bitwise: same values created on the device"}));

// torch-alloc-in-forward: a forward() that builds a constant tensor (here the sinusoidal position
// table) on every call allocates and computes it each step; computed once and registered as a
// buffer it is free.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <cmath>

namespace {

torch::Tensor sinusoidal(int64_t T, int64_t D, const torch::TensorOptions &opts) {
  torch::Tensor pos = torch::arange(T, opts.dtype(torch::kFloat)).unsqueeze(1);
  torch::Tensor div = torch::exp(torch::arange(0, D, 2, opts.dtype(torch::kFloat)) * (-std::log(10000.0) / double(D)));
  torch::Tensor pe = torch::zeros({T, D}, opts.dtype(torch::kFloat));
  pe.slice(1, 0, D, 2).copy_(torch::sin(pos * div));
  pe.slice(1, 1, D, 2).copy_(torch::cos(pos * div));
  return pe;
}

struct EncoderBefore : torch::nn::Module {
  torch::nn::Linear proj{nullptr};
  int64_t D;
  explicit EncoderBefore(int64_t d) : D(d) { proj = register_module("proj", torch::nn::Linear(d, d)); }
  torch::Tensor forward(torch::Tensor x) { // x: [B, T, D]
    torch::Tensor pe = sinusoidal(x.size(1), D, x.options()); // built on every call
    return torch::relu(proj->forward(x + pe));
  }
};

struct EncoderAfter : torch::nn::Module {
  torch::nn::Linear proj{nullptr};
  torch::Tensor pe;
  EncoderAfter(int64_t d, int64_t max_len) {
    proj = register_module("proj", torch::nn::Linear(d, d));
    pe = register_buffer("pe", sinusoidal(max_len, d, torch::TensorOptions()));
  }
  torch::Tensor forward(torch::Tensor x) {
    return torch::relu(proj->forward(x + pe.slice(0, 0, x.size(1))));
  }
};

template <class Encoder> struct Variant : probe::Variant {
  probe::Ctx ctx;
  std::shared_ptr<Encoder> enc;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, loss;
  int steps_per_call = 1;

  Variant(const probe::Ctx &c, std::shared_ptr<Encoder> e) : ctx(c), enc(std::move(e)) {
    int64_t B = c.size(8, 2, 2), T = c.size(2048, 512, 16), D = c.size(512, 128, 16);
    enc->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(enc->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, T, D}, c, 67);
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      loss = enc->forward(x).pow(2).mean();
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *enc, "enc.");
    return o;
  }
};

struct Before : Variant<EncoderBefore> {
  explicit Before(const probe::Ctx &c) : Variant(c, std::make_shared<EncoderBefore>(c.size(512, 128, 16))) {}
};
struct After : Variant<EncoderAfter> {
  explicit After(const probe::Ctx &c)
      : Variant(c, std::make_shared<EncoderAfter>(c.size(512, 128, 16), c.size(2048, 512, 16))) {}
};

} // namespace

PROBE_CASE("torch-alloc-in-forward", "position-table-per-forward",
           "encoder layer; before: forward() builds the sinusoidal position table on every call; after: built "
           "once in the constructor, register_buffer",
           Before, After, (probe::Tolerance{1e-6, 1e-6, "same table (CPU-built vs device-built: exp/sin ulps)"}));

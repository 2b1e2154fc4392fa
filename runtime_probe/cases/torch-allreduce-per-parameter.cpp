// torch-allreduce-per-parameter: one all-reduce call per parameter's gradient against one call on
// a flattened bucket (what DDP's reducer does). The process group is the single-process stand-in
// of probe/Comm.h (a c10d::ProcessGroup of one rank): this measures per-call overhead and copies,
// not the per-message network latency that makes the difference on several GPUs.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Comm.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  c10::intrusive_ptr<c10d::ProcessGroup> pg = probe::localProcessGroup();
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), D = c.size(256, 64, 16), L = c.size(24, 12, 4);
    for (int64_t i = 0; i < L; ++i) { // many small parameters, like a deep narrow network
      net->push_back(torch::nn::Linear(D, D));
      net->push_back(torch::nn::LayerNorm(torch::nn::LayerNormOptions({D})));
      net->push_back(torch::nn::ReLU());
    }
    net->push_back(torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 50);
    y = probe::randint(0, 10, {B}, c, 51);
  }
  void forward_backward() {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
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
      forward_backward();
      for (auto &p : net->parameters()) {
        std::vector<torch::Tensor> grad{p.grad()};
        pg->allreduce(grad)->wait(); // one collective per parameter, each waited on
      }
      opt->step();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      forward_backward();
      std::vector<torch::Tensor> grads;
      for (auto &p : net->parameters())
        grads.push_back(p.grad().view({-1}));
      std::vector<torch::Tensor> bucket{torch::cat(grads)}; // one flat bucket
      pg->allreduce(bucket)->wait();
      int64_t offset = 0;
      for (auto &p : net->parameters()) {
        int64_t n = p.numel();
        p.mutable_grad().copy_(bucket[0].slice(0, offset, offset + n).view_as(p));
        offset += n;
      }
      opt->step();
    }
  }
};

} // namespace

PROBE_CASE("torch-allreduce-per-parameter", "bucketed-allreduce",
           "deep narrow MLP (many small gradients); before: one all-reduce per parameter; after: one on a "
           "flattened bucket (single-process c10d::ProcessGroup stand-in, see probe/Comm.h)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same values, copied"}));

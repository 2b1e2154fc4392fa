// torch-ddp-no-sync: gradient accumulation over micro-batches that all-reduces the gradients after
// every micro-batch, where only the last all-reduce is needed (DDP's no_sync()). The all-reduce is
// the single-process stand-in of probe/Comm.h: this measures the avoided calls and copies, not the
// network time that dominates on several GPUs.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Comm.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  std::vector<torch::Tensor> xs, ys;
  torch::Tensor loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), D = c.size(2048, 512, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    for (int i = 0; i < 4; ++i) { // 4 micro-batches per optimizer step
      xs.push_back(probe::randn({B, D}, c, 30 + i));
      ys.push_back(probe::randint(0, 10, {B}, c, 40 + i));
    }
  }
  void micro_batch(size_t i) {
    loss = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]) / double(xs.size());
    loss.backward();
  }
  void allreduce_grads() {
    for (auto &p : net->parameters())
      probe::allreduce_mean(p.mutable_grad());
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
      opt->zero_grad();
      for (size_t i = 0; i < xs.size(); ++i) {
        micro_batch(i);
        allreduce_grads(); // what DDP does after every backward without no_sync()
      }
      opt->step();
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      opt->zero_grad();
      for (size_t i = 0; i < xs.size(); ++i)
        micro_batch(i);
      allreduce_grads(); // once, after the last micro-batch
      opt->step();
    }
  }
};

} // namespace

PROBE_CASE("torch-ddp-no-sync", "grad-accumulation-allreduce",
           "4 micro-batches per step; before: all-reduce after every micro-batch; after: only after the last "
           "(single-process all-reduce stand-in, see probe/Comm.h)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: the mean over one rank is the identity"}));

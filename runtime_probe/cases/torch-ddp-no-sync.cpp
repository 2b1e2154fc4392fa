// torch-ddp-no-sync: gradient accumulation over 4 micro-batches that all-reduces the gradients
// after every micro-batch, where only the all-reduce before the optimizer step is needed (what
// DDP's no_sync() gives). The process group is the single-process stand-in of probe/Comm.h (a
// c10d::ProcessGroup of one rank): this measures the avoided calls and copies, not the network
// time that dominates on several GPUs.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Comm.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  c10::intrusive_ptr<c10d::ProcessGroup> pg = probe::localProcessGroup();
  std::vector<torch::Tensor> xs, ys;
  torch::Tensor loss;
  static constexpr int accumulation_steps = 4;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 16, 4), D = c.size(2048, 512, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    for (int i = 0; i < accumulation_steps; ++i) { // one optimizer step per probe step
      xs.push_back(probe::randn({B, D}, c, 30 + i));
      ys.push_back(probe::randint(0, 10, {B}, c, 40 + i));
    }
  }
  void micro_batch(size_t i) {
    loss = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]) / double(accumulation_steps);
    loss.backward();
  }
  /// What DDP does after a backward pass: average the gradients over the ranks, in one bucket.
  void average_gradients() {
    std::vector<torch::Tensor> grads;
    for (auto &p : net->parameters())
      grads.push_back(p.grad());
    pg->allreduce_coalesced(grads)->wait();
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
    for (size_t i = 0; i < xs.size(); ++i) {
      micro_batch(i);
      average_gradients(); // after every micro-batch
      if ((i + 1) % accumulation_steps == 0) {
        opt->step();
        opt->zero_grad();
      }
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (size_t i = 0; i < xs.size(); ++i) {
      micro_batch(i);
      if ((i + 1) % accumulation_steps == 0) {
        average_gradients(); // once, before the optimizer step
        opt->step();
        opt->zero_grad();
      }
    }
  }
};

} // namespace

PROBE_CASE("torch-ddp-no-sync", "grad-accumulation-allreduce",
           "4 micro-batches per optimizer step; before: all-reduce after every micro-batch; after: only before "
           "the step (single-process c10d::ProcessGroup stand-in, see probe/Comm.h)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: the mean over one rank is the identity"}));

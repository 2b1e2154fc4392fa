// torch-autograd-history: a training step that keeps a running total of the loss as a tensor,
// `running += loss` (the loss requires grad, so the total records every step's graph and keeps it
// alive), against `running += loss.detach()`, the fix (and the advice torch-sync-item gives). Both
// totals hold the same values, bitwise. What the before keeps is memory, not work: each step's
// graph with the activations its nodes saved stays referenced from `running`; the per-step
// counts of operators and allocations are the same in both variants. backward() frees the tensors
// the graph saved, so what the before keeps is the graph's nodes, a few more per step for the whole
// run: heldGraphNodes() counts the autograd nodes reachable from `running` (the probe reports their
// growth per step, Counts::graph_nodes_held: exact on any device; the after holds none).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, running;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, D),
                                torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 1);
    y = probe::randint(0, 10, {B}, c, 2);
    running = torch::zeros({}, c.on());
  }
  int64_t heldGraphNodes() override { return probe::graphNodes(running); }
  probe::Outputs outputs() override {
    probe::Outputs o{{"running_loss", running.detach()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      opt->zero_grad();
      loss.backward();
      opt->step();
      running += loss; // records the addition: running holds every step's graph
    }
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      opt->zero_grad();
      loss.backward();
      opt->step();
      running += loss.detach();
    }
  }
};

} // namespace

PROBE_CASE("torch-autograd-history", "running-loss-keeps-graph",
           "MLP training step; before: running += loss (every step's graph kept alive); after: running += "
           "loss.detach()",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same fp32 additions"}));

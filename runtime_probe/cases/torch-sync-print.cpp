// torch-sync-print: streaming a tensor (std::cout << loss) on every step copies it to the host and
// formats it; the fix logs a device-side history once per logging interval.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

#include <sstream>

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  std::ostringstream log; // stands in for std::cout: the probe's output stays readable
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::ReLU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 8);
    y = probe::randint(0, 10, {B}, c, 9);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
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
      train_step();
      log << "loss " << loss << "\n"; // copies to the host, waits, formats
      log.str("");
    }
  }
};

struct After : Common {
  using Common::Common;
  std::vector<torch::Tensor> history;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      train_step();
      history.push_back(loss.detach());
    }
  }
  probe::Outputs outputs() override { // the logging interval: one copy, one print
    log << "losses " << torch::stack(history).cpu() << "\n";
    log.str("");
    return Common::outputs();
  }
};

} // namespace

PROBE_CASE("torch-sync-print", "print-loss-per-step",
           "MLP step; before: log << loss every step; after: keep the losses on the device, print them per "
           "logging interval",
           Before, After, (probe::Tolerance{0, 0, "bitwise: printing does not change the training"}));

// torch-sync-host-copy: a training loop that copies its metrics to the host (.cpu()) on every step
// against one that keeps them on the device and copies the history once (per epoch).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::Adam> opt;
  torch::Tensor x, y;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, D), torch::nn::GELU(), torch::nn::Linear(D, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(1e-3));
    x = probe::randn({B, D}, c, 6);
    y = probe::randint(0, 10, {B}, c, 7);
  }
  std::pair<torch::Tensor, torch::Tensor> train_step() {
    torch::Tensor logits = net->forward(x);
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits, y);
    opt->zero_grad();
    loss.backward();
    opt->step();
    torch::Tensor correct = (logits.argmax(1) == y).sum();
    return {loss.detach(), correct};
  }
};

struct Before : Common {
  using Common::Common;
  std::vector<torch::Tensor> losses, corrects; // host tensors
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto [loss, correct] = train_step();
      losses.push_back(loss.cpu()); // device-to-host copy: waits for the step
      corrects.push_back(correct.cpu());
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"losses", torch::stack(losses)}, {"corrects", torch::stack(corrects)}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

struct After : Common {
  using Common::Common;
  std::vector<torch::Tensor> losses, corrects; // device tensors
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      auto [loss, correct] = train_step();
      losses.push_back(loss);
      corrects.push_back(correct);
    }
  }
  probe::Outputs outputs() override { // once per epoch: one copy of the whole history
    probe::Outputs o{{"losses", torch::stack(losses).cpu()}, {"corrects", torch::stack(corrects).cpu()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

} // namespace

PROBE_CASE("torch-sync-host-copy", "metrics-to-host-per-step",
           "MLP + Adam; before: loss.cpu() and correct.cpu() every step; after: kept on the device, copied "
           "once per epoch",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same values, copied later"}));

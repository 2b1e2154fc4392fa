// torch-non-blocking-copy: a data loader yields pinned host batches (collated and pinned per batch,
// what PyTorch's DataLoader does with pin_memory=True); copying them with .to(device) blocks the
// host until each copy is done, .to(device, /*non_blocking=*/true) queues it and returns, so the
// host goes on preparing the next batch and queueing the step. One step is one pass over the
// loader (4 batches). On the CPU both are the same (1x).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

/// In-memory samples; get_batch gathers the rows of a batch and pins them when there is a GPU.
struct HostBatches : torch::data::datasets::BatchDataset<HostBatches, torch::data::Example<>> {
  torch::Tensor x, y;
  bool pin;
  HostBatches(torch::Tensor x, torch::Tensor y, bool pin) : x(std::move(x)), y(std::move(y)), pin(pin) {}
  torch::data::Example<> get_batch(c10::ArrayRef<size_t> request) override {
    torch::Tensor rows = torch::tensor(std::vector<int64_t>(request.begin(), request.end()));
    torch::Tensor bx = x.index_select(0, rows), by = y.index_select(0, rows);
    if (pin)
      return {bx.pin_memory(), by.pin_memory()};
    return {bx, by};
  }
  torch::optional<size_t> size() const override { return size_t(x.size(0)); }
};

using Loader = torch::data::StatelessDataLoader<HostBatches, torch::data::samplers::SequentialSampler>;

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Sequential net;
  std::unique_ptr<torch::optim::SGD> opt;
  std::unique_ptr<Loader> loader;
  torch::Tensor loss;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(512, 64, 8), D = c.size(4096, 256, 32);
    net = torch::nn::Sequential(torch::nn::Linear(D, 1024), torch::nn::ReLU(), torch::nn::Linear(1024, 10));
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    torch::manual_seed(24);
    torch::Tensor x = torch::randn({4 * B, D}), y = torch::randint(0, 10, {4 * B}, torch::kLong);
    loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        HostBatches(x, y, c.cuda()), torch::data::DataLoaderOptions(B));
  }
  void train_on(const torch::Tensor &x, const torch::Tensor &y) {
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
    for (auto &batch : *loader)
      train_on(batch.data.to(ctx.device), batch.target.to(ctx.device));
  }
};

struct After : Common {
  using Common::Common;
  void step() override {
    for (auto &batch : *loader)
      train_on(batch.data.to(ctx.device, /*non_blocking=*/true), batch.target.to(ctx.device, /*non_blocking=*/true));
  }
};

} // namespace

PROBE_CASE("torch-non-blocking-copy", "pinned-batch-copy",
           "MLP on a loader of pinned host batches, one pass (4 batches) per step; before: batch.data.to(device); "
           "after: batch.data.to(device, /*non_blocking=*/true)",
           Before, After, (probe::Tolerance{0, 0, "bitwise: same data"}));

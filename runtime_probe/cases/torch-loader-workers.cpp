// torch-loader-workers (fix-it case): a DataLoader without workers decodes and augments every batch
// on the training thread, between steps; with workers the batches are prepared in parallel. The
// "after" is this file after `torchlint --fix --checks=-*,torch-loader-workers`, which adds
// `.workers(4)` (the check's default Workers option) to the loader's options. The C++ DataLoader
// keeps the sampler's order with workers (enforce_ordering), so both variants train on the same
// batches.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

#include <optional>

namespace {

namespace F = torch::nn::functional;

/// Images stored as uint8 at a larger size, decoded, resized and normalised per sample (the
/// torchvision Resize + ToTensor + Normalize of seed 004).
struct Images : torch::data::datasets::Dataset<Images> {
  torch::Tensor raw, labels;
  int64_t out_size;
  Images(int64_t n, int64_t in_size, int64_t out_size) : out_size(out_size) {
    torch::manual_seed(14);
    raw = torch::randint(0, 256, {n, 3, in_size, in_size}, torch::kUInt8);
    labels = torch::randint(0, 10, {n}, torch::kLong);
  }
  torch::data::Example<> get(size_t i) override {
    torch::Tensor img = raw[int64_t(i)].to(torch::kFloat).div(255).unsqueeze(0);
    img = F::interpolate(img, F::InterpolateFuncOptions()
                                  .size(std::vector<int64_t>{out_size, out_size})
                                  .mode(torch::kBilinear)
                                  .align_corners(false))
              .squeeze(0);
    img = (img - 0.5) / 0.5;
    return {img, labels[int64_t(i)]};
  }
  torch::optional<size_t> size() const override { return size_t(raw.size(0)); }
};

using Batches = torch::data::datasets::MapDataset<Images, torch::data::transforms::Stack<>>;
using Loader = torch::data::StatelessDataLoader<Batches, torch::data::samplers::SequentialSampler>;

struct Step : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{16, 10};
  std::unique_ptr<torch::optim::SGD> opt;
  std::unique_ptr<Loader> loader;
  std::optional<torch::data::Iterator<torch::data::Example<>>> it;
  torch::Tensor loss;
  int64_t batch;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    batch = c.size(64, 16, 4);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    Images images(batch * 4, c.size(256, 128, 32), c.size(128, 64, 16));
    loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(images).map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(batch));
  }
  torch::data::Example<> next_batch() {
    if (!it || *it == loader->end())
      it.emplace(loader->begin());
    torch::data::Example<> b = **it;
    ++*it;
    return b;
  }
  void train_step() {
    torch::data::Example<> b = next_batch();
    torch::Tensor x = b.data.to(ctx.device), y = b.target.to(ctx.device);
    loss = F::cross_entropy(net->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *net, "net.");
    return o;
  }
};

} // namespace

PROBE_FIXIT_CASE("torch-loader-workers", "decode-resize-in-loader",
                 "ConvNet on images resized and normalised per sample; before: DataLoaderOptions without workers; "
                 "after: torchlint's fix-it, .workers(4), same batch order",
                 Step, (probe::Tolerance{0, 0, "bitwise: same batches in the same order"}));

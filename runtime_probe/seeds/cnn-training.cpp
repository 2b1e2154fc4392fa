// Seed 004 (a PyTorch profiler walkthrough): a CNN trained on CIFAR-10 resized to 224x224 with a
// per-step `return loss.item()`. The article measured ~80 ms per step, 57 ms after accumulating
// the loss on the device, and ~10 ms after DataLoader workers, pinned memory and non_blocking
// copies. Here the images are synthetic 32x32 uint8 CIFAR-like samples, resized and normalised
// per sample in the dataset (torchvision's Resize + ToTensor + Normalize).
#include "probe/Probe.h"

#include <algorithm>
#include <optional>
#include <thread>

namespace {

namespace F = torch::nn::functional;

/// The article's SimpleModel: in_layer conv + pool, 3 x (conv, ReLU, pool), fc1, out_layer.
struct SimpleModelImpl : torch::nn::Module {
  torch::nn::Conv2d in_layer{nullptr};
  torch::nn::Sequential hidden_layers;
  torch::nn::Linear fc1{nullptr}, out_layer{nullptr};
  SimpleModelImpl(int64_t img_size, int64_t hidden_channels, int64_t num_hidden_layers = 3, int64_t num_classes = 10) {
    auto conv = [](int64_t in, int64_t out) { return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)); };
    in_layer = register_module("in_layer", conv(3, hidden_channels));
    int64_t size = img_size / 2;
    for (int64_t i = 0; i < num_hidden_layers; ++i) {
      hidden_layers->push_back(conv(hidden_channels, hidden_channels));
      hidden_layers->push_back(torch::nn::ReLU());
      hidden_layers->push_back(torch::nn::MaxPool2d(2));
      size /= 2;
    }
    register_module("hidden_layers", hidden_layers);
    fc1 = register_module("fc1", torch::nn::Linear(hidden_channels * size * size, 256));
    out_layer = register_module("out_layer", torch::nn::Linear(256, num_classes));
  }
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = torch::max_pool2d(torch::relu(in_layer->forward(x)), 2);
    y = hidden_layers->forward(y).flatten(1);
    return out_layer->forward(torch::relu(fc1->forward(y)));
  }
};
TORCH_MODULE(SimpleModel);

struct Cifar : torch::data::datasets::Dataset<Cifar> {
  torch::Tensor raw, labels;
  int64_t img_size;
  bool pin;
  Cifar(int64_t n, int64_t img_size, bool pin) : img_size(img_size), pin(pin) {
    torch::manual_seed(72);
    raw = torch::randint(0, 256, {n, 3, 32, 32}, torch::kUInt8);
    labels = torch::randint(0, 10, {n}, torch::kLong);
  }
  torch::data::Example<> get(size_t i) override {
    torch::Tensor img = raw[int64_t(i)].to(torch::kFloat).div(255).unsqueeze(0);
    img = F::interpolate(img, F::InterpolateFuncOptions()
                                  .size(std::vector<int64_t>{img_size, img_size})
                                  .mode(torch::kBilinear)
                                  .align_corners(false))
              .squeeze(0);
    return {(img - 0.5) / 0.5, labels[int64_t(i)]};
  }
  torch::optional<size_t> size() const override { return size_t(raw.size(0)); }
};

/// Stack, then pin the batch in the loader (the C++ DataLoader has no pin_memory option).
struct StackAndPin : torch::data::transforms::BatchTransform<std::vector<torch::data::Example<>>, torch::data::Example<>> {
  bool pin;
  explicit StackAndPin(bool p) : pin(p) {}
  torch::data::Example<> apply_batch(std::vector<torch::data::Example<>> examples) override {
    torch::data::Example<> b = torch::data::transforms::Stack<>().apply_batch(std::move(examples));
    if (pin)
      return {b.data.pin_memory(), b.target.pin_memory()};
    return b;
  }
};

using Batches = torch::data::datasets::MapDataset<Cifar, StackAndPin>;
using Loader = torch::data::StatelessDataLoader<Batches, torch::data::samplers::SequentialSampler>;

struct CnnTraining : probe::Variant {
  probe::Ctx ctx;
  int stage; // 0 baseline, 1 + loss on the device, 2 + workers, pinned memory, non_blocking
  SimpleModel model{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::unique_ptr<Loader> loader;
  std::optional<torch::data::Iterator<torch::data::Example<>>> it;
  double epoch_loss_host = 0;
  torch::Tensor epoch_loss;
  int steps_per_call = 1;

  CnnTraining(const probe::Ctx &c, int s) : ctx(c), stage(s) {
    int64_t img = c.size(224, 64, 16), hidden = c.size(128, 16, 4), batch = c.size(32, 8, 2);
    model = SimpleModel(img, hidden);
    model->to(c.device);
    optimizer = std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(0.001));
    bool pin = stage >= 2 && c.cuda();
    size_t workers = stage >= 2 ? std::max<size_t>(2, std::min<size_t>(8, std::thread::hardware_concurrency())) : 0;
    loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        Cifar(batch * 8, img, pin).map(StackAndPin(pin)),
        torch::data::DataLoaderOptions().batch_size(size_t(batch)).workers(workers));
    epoch_loss = torch::zeros({}, c.on());
  }

  torch::data::Example<> next_batch() {
    if (!it || *it == loader->end())
      it.emplace(loader->begin());
    torch::data::Example<> b = **it;
    ++*it;
    return b;
  }

  torch::Tensor train(const torch::data::Example<> &data) {
    bool non_blocking = stage >= 2;
    torch::Tensor x = data.data.to(ctx.device, non_blocking);
    torch::Tensor y = data.target.to(ctx.device, non_blocking);
    torch::Tensor loss = F::cross_entropy(model->forward(x), y);
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
    return loss;
  }

  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      torch::Tensor loss = train(next_batch());
      if (stage < 1)
        epoch_loss_host += loss.item<double>(); // the article's `return loss.item()`
      else
        epoch_loss += loss.detach();
    }
  }

  probe::Outputs outputs() override {
    torch::Tensor total = stage < 1 ? torch::tensor(epoch_loss_host, torch::kDouble) : epoch_loss.to(torch::kDouble);
    probe::Outputs o{{"epoch_loss", total}};
    probe::addParameters(o, *model, "model.");
    return o;
  }
};

template <int Stage> std::unique_ptr<probe::Variant> make(const probe::Ctx &c) {
  return std::make_unique<CnnTraining>(c, Stage);
}

struct Register {
  Register() {
    probe::registerSeed(probe::SeedDef{
        "cnn-training",
        "Seed 004: SimpleModel (conv 128 x 4, fc 256) on CIFAR-like images resized to 224 (64 on the CPU), Adam; "
        "the article measured ~80 ms -> 57 ms -> ~10 ms per step.",
        probe::Tolerance{1e-5, 1e-6, "fp32; the host sums the loss in double, the device in float"},
        {{"baseline: loss.item() every step, no workers, pageable copies", &make<0>},
         {"loss accumulated on the device", &make<1>},
         {"loader workers, pinned memory, non_blocking copies", &make<2>}}});
  }
} register_seed;

} // namespace

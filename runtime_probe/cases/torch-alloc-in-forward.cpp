// torch-alloc-in-forward: a classifier whose forward() normalises its input with the dataset's
// per-channel mean and std built from literals on every call: two host tensors created and copied
// to the device per forward (synchronous copies from pageable memory on CUDA). Registered once as
// buffers in the constructor, they move with the module and cost nothing per step.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

template <class Classifier> struct Common : probe::Variant {
  probe::Ctx ctx;
  std::shared_ptr<Classifier> model = std::make_shared<Classifier>();
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 8, 2), S = c.size(64, 32, 16);
    model->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 67).mul(0.25).add(0.45); // RGB in [0, 1]-ish
    labels = probe::randint(0, 10, {B}, c, 68);
  }
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      loss = torch::nn::functional::cross_entropy(model->forward(images), labels);
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *model, "model.");
    return o;
  }
};

// probe:before
struct ClassifierBefore : torch::nn::Module {
  probe::ConvNet net{32, 10};
  ClassifierBefore() { register_module("net", net); }
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor mean = torch::tensor({0.485f, 0.456f, 0.406f}, x.options()).view({1, 3, 1, 1});
    torch::Tensor stdev = torch::tensor({0.229f, 0.224f, 0.225f}, x.options()).view({1, 3, 1, 1});
    return net->forward((x - mean) / stdev);
  }
};
using Before = Common<ClassifierBefore>;

// probe:after
struct ClassifierAfter : torch::nn::Module {
  probe::ConvNet net{32, 10};
  torch::Tensor mean, stdev;
  ClassifierAfter() {
    register_module("net", net);
    mean = register_buffer("mean", torch::tensor({0.485f, 0.456f, 0.406f}).view({1, 3, 1, 1}));
    stdev = register_buffer("stdev", torch::tensor({0.229f, 0.224f, 0.225f}).view({1, 3, 1, 1}));
  }
  torch::Tensor forward(torch::Tensor x) { return net->forward((x - mean) / stdev); }
};
using After = Common<ClassifierAfter>;

} // namespace

PROBE_CASE("torch-alloc-in-forward", "normalize-constants-per-forward",
           "ConvNet classifier that normalises its input; before: forward() builds the mean and std tensors "
           "from literals on every call; after: built once in the constructor, register_buffer",
           Before, After, (probe::Tolerance{0, 0, "bitwise: the same constants"}));

// torch-sync-bool-mask (fix-it case): a depth-regression step with a truncated L1 loss that clips
// the per-pixel errors with `err.index_put_({err > max_err}, max_err)`. index_put_ with a boolean
// mask runs nonzero() on the mask, whose size depends on the data (a sync on CUDA); masked_fill_
// writes the same values with fixed shapes. The "after" is this file after
// `torchlint --fix --checks=-*,torch-sync-bool-mask`, which rewrites it to
// `err.masked_fill_(err > max_err, max_err)`. (The masked cross-entropy with ignore_index, which
// has no fix-it, is seed 003's last stage.)
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

namespace {

struct Step : probe::Variant {
  probe::Ctx ctx;
  probe::SegNet net{4, 1, 10}; // per-pixel depth
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, depth, loss;
  int steps_per_call = 1;
  static constexpr double max_err = 1.0;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(32, 4, 2), S = c.size(256, 64, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));
    images = probe::randn({B, 3, S, S}, c, 4);
    depth = probe::randn({B, 1, S, S}, c, 5); // about a third of the errors exceed max_err
  }
  void train_step() {
    torch::Tensor err = (net->forward(images) - depth).abs();
    err.index_put_({err > max_err}, max_err); // truncated L1: outliers count max_err, no gradient
    loss = err.mean();
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

PROBE_FIXIT_CASE("torch-sync-bool-mask", "truncated-l1-depth",
                 "depth regression with a truncated L1 loss; before: err.index_put_({err > max_err}, max_err); "
                 "after: torchlint's fix-it, err.masked_fill_(err > max_err, max_err)",
                 Step, (probe::Tolerance{0, 0, "bitwise: the same elements set to the same value"}));

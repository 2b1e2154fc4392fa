// torch-tf32-matmul (split case, before): an MLP training step in fp32 with TF32 left off for
// cuBLAS. Its after, the same step with at::globalContext().setAllowTF32CuBLAS(true), is in
// torch-tf32-matmul.after.cpp: the check judges the whole file ("never allows TF32"), so an after
// in this file would silence it for the before too. TF32 is a CUDA tensor-core format: on the CPU
// the flag changes nothing, and both variants run the same fp32 kernels (expect 1x and identical
// counts there); on an Ampere or newer GPU the after runs the GEMMs on tensor cores.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Probe.h"

namespace {

struct Common : probe::Variant {
  probe::Ctx ctx;
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor x, y, loss;
  int steps_per_call = 1;

  explicit Common(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(1024, 64, 8), D = c.size(4096, 256, 32);
    fc1 = torch::nn::Linear(D, D);
    fc2 = torch::nn::Linear(D, D);
    fc3 = torch::nn::Linear(D, 10);
    std::vector<torch::Tensor> params;
    for (auto *m : {&fc1, &fc2, &fc3}) {
      (*m)->to(c.device);
      for (auto &p : (*m)->parameters())
        params.push_back(p);
    }
    opt = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.01));
    x = probe::randn({B, D}, c, 71);
    y = probe::randint(0, 10, {B}, c, 72);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(fc3(torch::relu(fc2(torch::relu(fc1(x))))), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  probe::Outputs outputs() override {
    probe::Outputs o{{"loss", loss.detach()}};
    probe::addParameters(o, *fc1, "fc1.", /*grads=*/false);
    probe::addParameters(o, *fc2, "fc2.", /*grads=*/false);
    probe::addParameters(o, *fc3, "fc3.", /*grads=*/false);
    return o;
  }
};

} // namespace

// The after file includes this one with PROBE_SPLIT_AFTER defined, for the shared code above.
#ifndef PROBE_SPLIT_AFTER
namespace {

struct Before : Common {
  using Common::Common;
  void step() override {
    for (int s = 0; s < steps_per_call; ++s)
      train_step();
  }
};

} // namespace

PROBE_BEFORE("torch-tf32-matmul", "mlp-tf32",
             "MLP training step in fp32; before: TF32 off for cuBLAS (the default); after: "
             "setAllowTF32CuBLAS(true) (a no-op on the CPU)",
             Before, (probe::Tolerance{2e-2, 2e-3, "TF32 on CUDA: inputs rounded to a 10-bit mantissa"}));
#endif

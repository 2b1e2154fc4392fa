// torch-jit-inference-setup (fix-it case): a serving step that runs a TorchScript MLP loaded with
// torch::jit::load with gradient recording on: its parameters require gradients, so autograd
// records the graph and keeps the activations of every request. The "after" is this file after
// `torchlint --fix --checks=-*,torch-jit-inference-setup`, which declares
// `torch::NoGradGuard no_grad;` at the start of the step. The module is built and saved here
// (Module::define, save to a buffer) and loaded back with torch::jit::load, as a deployment
// loads a file; prepare() switches it to eval() (a helper the check does not look into, so its
// eval()/freeze advice stays out of this case: freezing would turn the parameters into constants,
// which needs no guard at all).
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include <torch/script.h>
#include "probe/Probe.h"
#include <sstream>

namespace {

void prepare(torch::jit::Module &m) { m.eval(); }

struct Step : probe::Variant {
  probe::Ctx ctx;
  torch::jit::Module module;
  torch::Tensor x, out;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(256, 64, 8), D = c.size(1024, 256, 32);
    torch::jit::Module src("Mlp");
    src.register_parameter("w1", (probe::randn({D, D}, c, 81) * 0.05).requires_grad_(true), false);
    src.register_parameter("w2", (probe::randn({D, 10}, c, 82) * 0.05).requires_grad_(true), false);
    src.define("def forward(self, x):\n  return torch.mm(torch.relu(torch.mm(x, self.w1)), self.w2)\n");
    std::stringstream file;
    src.save(file);
    module = torch::jit::load(file, c.device);
    prepare(module);
    x = probe::randn({B, D}, c, 83);
  }
  /// One batch of requests through the model.
  void step() override {
    for (int s = 0; s < steps_per_call; ++s) {
      std::vector<torch::jit::IValue> inputs{x};
      out = module.forward(inputs).toTensor();
    }
  }
  probe::Outputs outputs() override { return {{"out", out.detach()}}; }
};

} // namespace

PROBE_FIXIT_CASE("torch-jit-inference-setup", "jit-serving-no-grad",
                 "TorchScript MLP (torch::jit::load) serving a batch per step; before: gradient recording on; "
                 "after: torchlint's fix-it, torch::NoGradGuard at the start of the step",
                 Step, (probe::Tolerance{0, 0, "bitwise: same forward"}));

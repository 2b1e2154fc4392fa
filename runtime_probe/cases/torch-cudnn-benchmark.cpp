// torch-cudnn-benchmark (fix-it case): a convolutional training program with fixed input shapes
// that never enables cuDNN's auto-tuner uses cuDNN's heuristic algorithm choice;
// at::globalContext().setBenchmarkCuDNN(true) times the candidates once per shape and keeps the
// fastest. The "after" is this file after `torchlint --fix --checks=-*,torch-cudnn-benchmark`, which
// inserts that call at the start of main(). No effect on the CPU (1x).
//
// The check judges a whole program: main(), convolutions, CUDA and training in one translation
// unit, and no call configuring cuDNN anywhere in it. A probe case is no program (the probe has
// one main() for all cases), so this file has a main() of its own that the build renames: the
// probe compiles every case that defines `int main(` with -Dmain=probe_main_<case> (and the fixed
// copy with -Dmain=probe_fixed_main_<case>), see runtime_probe/CMakeLists.txt, while torchlint
// sees, and fixes, a real main(). Each step calls it, as the program's start-up, under
// probe::CudnnSettingsScope, which restores the process-wide flag afterwards (before and after run
// in one process) and is defined outside this file so that the before configures nothing.
//
// Limitation on CUDA: ATen caches the chosen algorithm per convolution shape in a cache whose key
// does not include the benchmark flag, and the probe runs before and after in one process, so
// whichever variant runs a shape first decides the algorithm of both. Before runs first: expect
// ~1x on CUDA too; measuring the auto-tuner needs the variants in separate processes.
#include <torch/torch.h> // first, so that torchlint precompiles it (a leading <...> block)
#include "probe/Models.h"

// The training program's start-up: what it configures once, before building the model and
// training it (in the before: nothing, the anti-pattern).
int main() {
  return 0;
}

namespace {

struct Step : probe::Variant {
  probe::Ctx ctx;
  probe::ConvNet net{64, 10};
  std::unique_ptr<torch::optim::SGD> opt;
  torch::Tensor images, labels, loss;
  int steps_per_call = 1;

  explicit Step(const probe::Ctx &c) : ctx(c) {
    int64_t B = c.size(64, 8, 2), S = c.size(128, 32, 16);
    net->to(c.device);
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01));
    images = probe::randn({B, 3, S, S}, c, 25);
    labels = probe::randint(0, 10, {B}, c, 26);
  }
  void train_step() {
    loss = torch::nn::functional::cross_entropy(net->forward(images), labels);
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  void step() override {
    probe::CudnnSettingsScope settings; // main()'s settings hold for this step only
    main();
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

PROBE_FIXIT_CASE("torch-cudnn-benchmark", "convnet-fixed-shapes",
                 "ConvNet training with fixed shapes; before: cuDNN benchmark off; after: torchlint's fix-it, "
                 "at::globalContext().setBenchmarkCuDNN(true) at the start of main()",
                 Step, (probe::Tolerance{1e-3, 1e-4, "fp32, cuDNN may pick other algorithms"}));

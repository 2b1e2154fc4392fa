// Clean: TorchScript inference set up as it should be: eval(), optimize_for_inference (or freeze)
// once after loading, forward() under c10::InferenceMode in main and under a NoGradGuard in every
// caller of a helper.
#include <torch/torch.h>
#include <torch/script.h>
#include <vector>

torch::Tensor run(torch::jit::Module &m, const torch::Tensor &x) {
  std::vector<torch::jit::IValue> in{x};
  return m.forward(in).toTensor();
}

int main() {
  torch::jit::Module module = torch::jit::load("model.pt");
  module.eval();
  module = torch::jit::optimize_for_inference(module);
  torch::jit::Module frozen_src = torch::jit::load("other.pt");
  frozen_src.eval();
  torch::jit::Module frozen = torch::jit::freeze(frozen_src);
  {
    c10::InferenceMode guard;
    for (int i = 0; i < 100; ++i) {
      std::vector<torch::jit::IValue> in{torch::randn({1, 16})};
      auto y = module.forward(in).toTensor();
      (void)y;
    }
  }
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 100; ++i) {
    auto z = run(frozen, torch::randn({1, 16}));
    (void)z;
  }
}

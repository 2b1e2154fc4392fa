// torch-jit-inference-setup: a TorchScript model served in a loop straight after torch::jit::load:
// no inference guard, no eval(), no freeze. The fix-it declares a NoGradGuard in main().
// Fixes: the whole <case>.fixed.cpp, not inline CHECK-FIXES: the fix inserts a statement before
// the body's first statement, so a CHECK-FIXES comment at the top of the body would itself be the
// line the insertion follows; the whole file shows where the statement lands.
#include <torch/torch.h>
#include <torch/script.h>
#include <vector>

int main(int argc, char **argv) {
  torch::jit::Module module = torch::jit::load(argc > 1 ? argv[1] : "model.pt");
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: TorchScript module loaded here and run (forward() at line 17) is never switched to eval() [torch-jit-inference-setup]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: warning: TorchScript module loaded here runs in a serving loop (forward() at line 17) without torch::jit::freeze or torch::jit::optimize_for_inference [torch-jit-inference-setup]
  module.to(torch::kCUDA);
  for (int request = 0; request < 1000; ++request) {
    std::vector<torch::jit::IValue> inputs{torch::randn({1, 3, 224, 224}, torch::kCUDA)};
    auto out = module.forward(inputs).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: TorchScript forward() runs with gradient recording on in a program that never trains [torch-jit-inference-setup]
    (void)out;
  }
}

// torch-sync-explicit in a file whose option parser is not installed (issue 14): the argument of
// the second call has an unknown type. Declarations synthesised for the missing library
// (core/Synthesis.h: clopts::Options, operator[], as<T>()) type it, and the finding rests only on
// the callee, torch::cuda::synchronize, which is libtorch's: both calls sync on every step.
// TORCHLINT-MISSING-HEADERS: clopts.hpp
#include <torch/torch.h>
#include <clopts.hpp>

int main(int argc, char **argv) {
  auto args = clopts::Options("train").parse(argc, argv);
  auto w = torch::randn({4}, torch::kCUDA);
  for (int step = 0; step < 10; ++step) {
    w.mul_(0.9);
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: torch::cuda::synchronize() blocks the CPU until the device has finished [torch-sync-explicit]
    torch::cuda::synchronize(args["device"].as<int>());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: torch::cuda::synchronize() blocks the CPU until the device has finished [torch-sync-explicit]
  }
}

// torch-sync-explicit in a file whose option parser is not installed (issue 14): a call whose
// argument has an unknown type still stands in clang's AST (its type is known), but it contains
// errors, and no finding rests on code with errors: only the fully typed call is reported.
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
  }
}

// torch-loader-workers in a file with a compiler error elsewhere (issue 24): a call into a missing
// library inside the loop used to silence the check for the whole file. This loader's options are
// all in sight (none given to unknown code, no error on their way): it is reported.
// (Synthesised declarations are off here, so that the call stays a compiler error.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: tracker/tracker.h
#include <torch/torch.h>
#include "tracker/tracker.h"

int main() {
  auto loader = torch::data::make_data_loader(
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: torch::data::make_data_loader() with workers unset or 0 [torch-loader-workers]
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 32);
  for (auto &batch : *loader)
    tracker::Run::current().log("batch", batch.data.size(0)); // a compiler error: tracker is unknown
}

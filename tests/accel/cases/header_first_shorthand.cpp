// shorthand_after.h defines `None` (a name libtorch looks at) after its <torch/torch.h>: the file
// still gets the PCH of the block.
#include "shorthand_after.h"

int main() {
  auto t = torch::ones({4, 3}, torch::kCUDA);
  float s = 0;
  for (int i = 0; i < 3; ++i)
    s += firstRows(t).sum().item<float>(); // a finding (test_plugin_finds_something)
  return s > 0;
}

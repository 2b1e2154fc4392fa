// A macro before the includes: a PCH only as libtorch never reads its name. No findings: item() only in setup.
#define TORCHLINT_ACCEL_TEST 1
#include <torch/torch.h>

int main() {
  auto t = torch::ones({4});
  float once = t.sum().item<float>(); // setup code, runs once
  for (int i = 0; i < 3; ++i)
    t = t * 2; // no sync in the loop
  return once > 0;
}

// <cmath> first: libstdc++'s <cmath> has no include guard at its top (it includes <math.h> and
// defines a macro first), so clang does not count it as guarded; reading it again after the PCH
// changes nothing, and the block is precompiled whole.
#include <cmath>
#include <torch/torch.h>

int main() {
  auto x = torch::randn({16}, torch::kCUDA);
  double acc = 0;
  for (int i = 0; i < 100; ++i)
    acc += std::sqrt(x.max().item<double>());
  return acc > 0;
}

// <cassert> has no include guard (by design): the PCH holds only <torch/torch.h>, <cassert> and
// what follows are parsed in the TU.
#include <torch/torch.h>
#include <cassert>
#include <cmath>

int main() {
  auto w = torch::zeros({3}, torch::kCUDA);  // on the device: item() below is a sync
  double acc = 0;
  for (int i = 0; i < 5; ++i) {
    w += 1;
    acc += std::sqrt(w.sum().item<double>());
  }
  assert(acc > 0);
  return 0;
}

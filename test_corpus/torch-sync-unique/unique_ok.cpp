// No sync to report: a CPU tensor, setup code, the sort + count_nonzero alternative, and
// std::unique on host data.
#include <torch/torch.h>
#include <algorithm>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto labels = torch::randint(0, 4, {64}, device);
  auto classes = at::_unique(labels); // setup: once
  auto cpu_labels = torch::randint(0, 4, {64});
  std::vector<int> ids = {1, 1, 2};
  for (int step = 0; step < 10; ++step) {
    auto target = torch::randint(0, 4, {64}, device);
    auto host_classes = at::_unique(cpu_labels);
    auto sorted = std::get<0>(target.flatten().sort());
    auto num_unique = torch::count_nonzero(sorted.diff()) + 1;
    auto last = std::unique(ids.begin(), ids.end());
    (void)host_classes; (void)num_unique; (void)last;
  }
  (void)classes;
}

// torch-sync-item: a CPU tensor filled through a non-const `Tensor&` out-parameter stays on the CPU
// when the callee (its body in this file) only writes into it (copy_, data_ptr, fill_) or assigns
// it CPU tensors: its device is not lost. (Positive counterpart: out_parameters.cpp.)
#include <torch/torch.h>
#include <cstring>
#include <vector>

static void load_batch(torch::Tensor &out, const std::vector<float> &src) {
  std::memcpy(out.data_ptr<float>(), src.data(), src.size() * sizeof(float));
}
static void refill(torch::Tensor &out, const torch::Tensor &cpu_src) { out.copy_(cpu_src); }
static void rebuild(torch::Tensor &out, int64_t n) {
  if (n > 4)
    out = torch::zeros({n});
  else
    out.fill_(1.0);
}
static void forward_to(torch::Tensor &out) { refill(out, torch::ones({4})); } // follows refill

int main() {
  auto gpu = torch::randn({4}, torch::kCUDA);
  std::vector<float> host(4, 1.0f);
  float total = 0;
  for (int step = 0; step < 10; ++step) {
    gpu = gpu * 0.5;
    torch::Tensor batch = torch::empty({4});
    load_batch(batch, host);
    total += batch.sum().item<float>();
    torch::Tensor target = torch::zeros({4});
    refill(target, torch::ones({4}));
    total += target.max().item<float>();
    torch::Tensor sized = torch::empty({2});
    rebuild(sized, step);
    total += sized.sum().item<float>();
    torch::Tensor chained = torch::zeros({4});
    forward_to(chained);
    total += chained.sum().item<float>();
  }
  (void)total;
}

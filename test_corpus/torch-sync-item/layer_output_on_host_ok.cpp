// item() on the output of a libtorch layer whose input is provably on the host: a layer's output
// lives with its input (its parameters must be on the same device, or forward() throws), through
// `layer->forward(x)` as through `layer(x)`. A CPU-side policy in a program that also uses CUDA
// elsewhere (an action chosen on the host from a small network that is never moved).
#include <torch/torch.h>
#include <vector>

int main() {
  torch::nn::Linear policy(8, 4);
  auto gpu = torch::randn({4}, torch::kCUDA);
  std::vector<float> obs(8);
  int64_t actions = 0;
  for (int step = 0; step < 1000; ++step) {
    torch::NoGradGuard no_grad;
    torch::Tensor x = torch::from_blob(obs.data(), {1, 8});
    actions += policy->forward(x).argmax(1).item<int64_t>();
    actions += policy(x).argmax(1).item<int64_t>();
  }
  (void)gpu;
  return actions > 0;
}

// item() on the output of a libtorch layer whose input is provably on the host is quiet: its output
// lives with its input (its parameters must be on the same device, or forward() throws), through
// `layer->forward(x)` as through `layer(x)`. A CPU-side policy in a program that also uses CUDA
// elsewhere (an action chosen on the host from a small network that is never moved). Not for a
// container: a Sequential's modules may be the user's, which may move the tensor (reported).
#include <torch/torch.h>
#include <vector>

struct ToDevice : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.to(torch::kCUDA); }
};

int main() {
  torch::nn::Linear policy(8, 4);
  torch::nn::Sequential staged(ToDevice(), torch::nn::Linear(8, 4));
  auto gpu = torch::randn({4}, torch::kCUDA);
  std::vector<float> obs(8);
  int64_t actions = 0;
  for (int step = 0; step < 1000; ++step) {
    torch::NoGradGuard no_grad;
    torch::Tensor x = torch::from_blob(obs.data(), {1, 8});
    actions += policy->forward(x).argmax(1).item<int64_t>();
    actions += policy(x).argmax(1).item<int64_t>();
    actions += staged->forward(x).argmax(1).item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; accumulate the value on the device instead (`total += loss.detach()`: without detach() every step's autograd graph stays alive) and read it once per logging interval (in the loop at line 19 of main()) [torch-sync-item]
  }
  (void)gpu;
  return actions > 0;
}

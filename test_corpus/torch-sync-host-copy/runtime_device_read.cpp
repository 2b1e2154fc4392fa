// Host reads through data_ptr() of tensors whose device the program chooses at run time: the
// options member comes from main(), which takes CUDA when it is there. On a GPU each read
// dereferences device memory (a crash, or garbage with unified addressing); where it works it is
// an item() per trial. Keep the selection on the device, read one index once.
#include <torch/torch.h>
#include <vector>

class TrialSearch {
public:
  explicit TrialSearch(torch::TensorOptions opts) : options_(opts) {}

  int64_t best(const std::vector<torch::Tensor> &losses, const std::vector<torch::Tensor> &dists) {
    auto best_loss = torch::full({}, 1e9, options_);
    int64_t best_index = -1;
    for (size_t i = 0; i < losses.size(); ++i) {
      if ((dists[i] < 0.1).to(torch::kBool).data_ptr<bool>()[0]) {
        // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: reading a tensor through data_ptr() on the host is only valid on the CPU, and this tensor's device is chosen at run time [torch-sync-host-copy]
        if (*(losses[i] < best_loss).data_ptr<bool>()) {
          // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: reading a tensor through data_ptr() on the host is only valid on the CPU [torch-sync-host-copy]
          best_loss = losses[i];
          best_index = static_cast<int64_t>(i);
        }
      }
    }
    return best_index;
  }

private:
  torch::TensorOptions options_;
};

int main() {
  auto options = torch::TensorOptions().dtype(torch::kDouble);
  if (torch::cuda::is_available())
    options = options.device(torch::kCUDA);
  TrialSearch search(options);
  auto w = torch::randn({8}, options.requires_grad(true));
  torch::optim::SGD opt({w}, 0.1);
  for (int step = 0; step < 100; ++step) {
    std::vector<torch::Tensor> losses, dists;
    for (int t = 0; t < 4; ++t) {
      losses.push_back(((w - t) * (w - t)).sum().detach());
      dists.push_back((w * 0.01 * t).norm().detach());
    }
    int64_t k = search.best(losses, dists);
    opt.zero_grad();
    auto loss = ((w - k) * (w - k)).sum();
    loss.backward();
    opt.step();
  }
}

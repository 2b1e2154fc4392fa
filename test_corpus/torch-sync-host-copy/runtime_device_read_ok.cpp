// Look-alikes of runtime_device_read.cpp that stay quiet: host reads through data_ptr() of
// tensors that are provably on the CPU (a literal table, a host factory), and a pointer handed to
// a function (not a read), in a program that takes CUDA when it is there.
#include <torch/torch.h>
#include <vector>

void consume(const double *p, int64_t n) { (void)p; (void)n; }

class TrialSearch {
public:
  explicit TrialSearch(torch::TensorOptions opts) : options_(opts) {}

  int64_t best(const std::vector<torch::Tensor> &losses) {
    auto table = torch::tensor({0.1, 0.2, 0.5});
    int64_t best_index = -1;
    double best_loss = 1e9;
    for (size_t i = 0; i < losses.size(); ++i) {
      double l = static_cast<double>(i);
      double threshold = table.data_ptr<double>()[i % 3];
      auto flags = torch::zeros({4}, torch::kBool);
      bool first = *flags.data_ptr<bool>();
      consume(losses[i].data_ptr<double>(), losses[i].numel());
      if (l < best_loss && l > threshold && !first) {
        best_loss = l;
        best_index = static_cast<int64_t>(i);
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
    std::vector<torch::Tensor> losses;
    for (int t = 0; t < 4; ++t)
      losses.push_back(((w - t) * (w - t)).sum().detach());
    int64_t k = search.best(losses);
    opt.zero_grad();
    auto loss = ((w - k) * (w - k)).sum();
    loss.backward();
    opt.step();
  }
}

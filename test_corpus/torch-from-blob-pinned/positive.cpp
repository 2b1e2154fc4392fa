// torch-from-blob-pinned: from_blob() with pinned_memory(true) in its options, written in the call
// and through a local options variable: from_blob allocates nothing, so nothing is pinned and the
// non_blocking copies below are synchronous.
#include <torch/torch.h>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(8, 2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  std::vector<float> host(16 * 8, 1.0f);
  std::vector<int64_t> labels(16, 1);
  auto opts = torch::TensorOptions().dtype(torch::kLong).pinned_memory(true);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::from_blob(host.data(), {16, 8}, torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true))
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: from_blob() wraps memory it does not allocate, so pinned_memory(true) in its options pins nothing [torch-from-blob-pinned]
                 .to(device, /*non_blocking=*/true);
    auto y = torch::from_blob(labels.data(), {16}, opts).to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: from_blob() wraps memory it does not allocate [torch-from-blob-pinned]
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

// A mask that arrives as a parameter: every call in the TU passes a comparison result, so the
// helper's boolean-mask indexing is followed to its callers (never decided by the parameter's name).
#include <torch/torch.h>

torch::Tensor masked_loss(const torch::Tensor &pred, const torch::Tensor &target, const torch::Tensor &valid) {
  return torch::mse_loss(pred.index({valid}), target.index({valid}));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
  // CHECK-MESSAGES: :[[@LINE-2]]:54: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
}

// Passed on through a second helper, by value.
static torch::Tensor select_rows(torch::Tensor x, torch::Tensor keep) { return x.index({keep}); }
// CHECK-MESSAGES: :[[@LINE-1]]:82: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
torch::Tensor rows_above(torch::Tensor x, torch::Tensor m) { return select_rows(x, m); }

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 8}, device);
    auto y = torch::randn({32, 1}, device);
    auto pred = net(x);
    auto loss = masked_loss(pred, y, y > 0) + masked_loss(pred, y, y.isfinite() & (y < 4));
    loss = loss + rows_above(pred, pred.gt(0)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

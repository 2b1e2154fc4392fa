// torch-sync-item: a statement macro's `do { ... } while (0)` is no loop: the message names the
// training loop around it, not the macro's line.
#include <torch/torch.h>
#include <cmath>
#include <cstdlib>

#define EXPECT_FINITE(v)  \
  do {                    \
    if (!std::isfinite(v)) \
      std::abort();       \
  } while (0)

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(8, 1);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 8}, device);
    auto loss = torch::mse_loss(model->forward(x), x.sum(1, true));
    opt.zero_grad();
    loss.backward();
    opt.step();
    EXPECT_FINITE(loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: (in the loop at line 18 of main()) [torch-sync-item]
  }
}

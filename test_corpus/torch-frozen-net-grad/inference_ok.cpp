// torch-frozen-net-grad look-alike: an inference program (no optimizer anywhere): every network is
// "in no optimizer", and nothing trains; torch-eval-no-grad's business, not this check's.
#include <torch/torch.h>

int main() {
  torch::nn::Linear net(16, 4);
  for (int i = 0; i < 100; ++i) {
    auto y = net->forward(torch::randn({1, 16}));
    y.sum().backward();
  }
  return 0;
}

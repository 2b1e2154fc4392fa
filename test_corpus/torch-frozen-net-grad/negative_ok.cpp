// torch-frozen-net-grad: TODO look-alikes that must stay quiet: the same call outside the loop (set-up code),
// CPU-only tensors, code in a unit-test body. No expectations: any finding fails the case.
#include <torch/torch.h>

int main() {
  auto model = torch::nn::Linear(8, 2);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(torch::randn({16, 8})).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

// The project's own header comes first (it includes torch.h): served by the torch.h PCH through
// the header chain, with the same findings as without it.
#include "model_guarded.h"
#include <iostream>

int main() {
  GuardedNet net;
  net.to(torch::kCUDA);
  torch::optim::SGD opt(net.parameters(), 0.1);
  double total = 0;
  for (int step = 0; step < 10; ++step) {
    auto x = torch::randn({8, 4}, torch::kCUDA);
    auto loss = net.forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += lossValue(loss);
    std::cout << loss.item<float>() << "\n";
  }
  return total > 0;
}

// Findings in the main file and in a project header; the block before "helpers.h" is precompiled.
#include <torch/torch.h>
#include <algorithm>
#include <vector>
#include "helpers.h"

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) {
    auto y = fc(x);
    if (y.sum().item<float>() > 0) // hot: forward()
      y = y * 2;
    return y;
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

namespace train {
float logStep(const torch::Tensor &loss) { return loss.item<float>(); } // hot via the loop in main
} // namespace train

template <typename T> T readAs(const torch::Tensor &t) { return t.template item<T>(); }

int main() {
  Net net;
  net->to(torch::kCUDA); // a CUDA program: its syncs are real
  torch::optim::SGD opt(net->parameters(), 0.1);
  std::vector<torch::Tensor> history;
  float total = 0;
  for (int step = 0; step < 10; ++step) {
    auto x = torch::randn({8, 4}, torch::kCUDA);
    auto loss = net->forward(x).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<float>();
    total += loss.item().toFloat(); // NOLINT(torch-sync-item)
    total += train::logStep(loss);
    total += readAs<float>(loss);
    history.push_back(loss.detach());
    std::for_each(history.begin(), history.end(), [&](const auto &h) { total += h.template item<float>(); });
  }
  total += sumLosses(history);
  total += proj::readOnce(history.front());
  return total > 0;
}

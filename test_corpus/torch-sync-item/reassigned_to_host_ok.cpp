// torch-sync-item: a device tensor reassigned with its host copy (`t = t.cpu()...`) before its
// elements are read: every read after the assignment reads the host tensor, whatever t held
// before, so none syncs. The look-alikes (the copy made in one branch only, or the variable moved
// back to the device later in the same loop) are in reassigned_to_host.cpp.
#include <torch/torch.h>
#include <iostream>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 8);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  std::vector<std::vector<double>> rows;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({8, 8}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    torch::Tensor weights = net->weight.detach();
    weights = weights.cpu().to(torch::kDouble);
    for (int i = 0; i < weights.size(0); ++i)
      for (int j = 0; j < weights.size(1); ++j)
        rows.push_back({weights[i][j].item<double>()});
  }
  std::cout << rows.size() << "\n";
}

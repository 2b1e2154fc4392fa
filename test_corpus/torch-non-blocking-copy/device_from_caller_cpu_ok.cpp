// torch-non-blocking-copy: the same trainer as device_from_caller.cpp, but main() is in this file
// and never names CUDA: a CPU-only program, nothing to overlap, no finding.
#include <torch/torch.h>
#include <tuple>

class ShardLoader {
public:
  bool operator()(std::tuple<torch::Tensor, torch::Tensor> &batch);
};

void train(ShardLoader &loader, torch::nn::Linear &net, torch::Device &device) {
  torch::optim::SGD opt(net->parameters(), 0.01);
  std::tuple<torch::Tensor, torch::Tensor> batch;
  while (loader(batch)) {
    auto x = std::get<0>(batch).to(device);
    auto loss = torch::mse_loss(net(x), std::get<1>(batch).to(device));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::Device device(torch::kCPU);
  torch::nn::Linear net(4, 1);
  ShardLoader loader;
  train(loader, net, device);
  return 0;
}

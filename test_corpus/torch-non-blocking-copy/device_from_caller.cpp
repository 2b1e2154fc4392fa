// torch-non-blocking-copy in a trainer file without main(): the device is a parameter of train(),
// chosen by main() in another file (CUDA when available), so this file cannot tell that the program
// is CPU-only; the batch's blocking copy is reported. A copy to a device the file itself fixes to
// the CPU stays quiet.
#include <torch/torch.h>
#include <tuple>

class ShardLoader {
public:
  bool operator()(std::tuple<torch::Tensor, torch::Tensor> &batch);
};

void train(ShardLoader &loader, torch::nn::Linear &net, torch::Device &device) {
  torch::optim::SGD opt(net->parameters(), 0.01);
  std::tuple<torch::Tensor, torch::Tensor> batch;
  torch::Device host(torch::kCPU);
  while (loader(batch)) {
    auto x = std::get<0>(batch).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
    auto y = std::get<1>(batch).to(host); // quiet: a copy to the CPU
    auto loss = torch::mse_loss(net(x), y.to(device, /*non_blocking=*/true));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

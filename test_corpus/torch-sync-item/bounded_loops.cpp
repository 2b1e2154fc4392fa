// A loop over the model's parameters is hot when it runs on every step (a gradient-norm helper
// called from the training loop), and then the message names the training loop.
#include <torch/torch.h>

double grad_norm(torch::nn::Module &model) {
  double total = 0;
  for (const auto &p : model.parameters())
    if (p.grad().defined())
      total += p.grad().norm().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: Tensor::item() copies the value to the host [torch-sync-item]
  return total;
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  double norms = 0;
  for (int step = 0; step < 100; ++step) {
    auto loss = net(torch::randn({4, 8}, device)).sum();
    opt.zero_grad();
    loss.backward();
    norms += grad_norm(*net);
    opt.step();
  }
  return norms > 0;
}

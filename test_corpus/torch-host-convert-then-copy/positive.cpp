// torch-host-convert-then-copy: TODO the anti-pattern in a training loop; every finding is expected inline.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(8, 2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8}, torch::TensorOptions().device(device));
    auto loss = model->forward(x).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TODO the message [torch-host-convert-then-copy]
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

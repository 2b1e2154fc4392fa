// torch-sync-item: look-alikes of reassigned_to_host_ok.cpp where the device tensor can still
// reach the read: the host copy is made in one branch only, or the variable (declared outside the
// loop) is moved back to the device after the read, so the next iteration reads the device
// tensor. Both reads are reported.
#include <torch/torch.h>
#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 8);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  double sum = 0;
  torch::Tensor state = torch::zeros({8}, device);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({8, 8}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    torch::Tensor weights = net->weight.detach();
    if (argc > 1)
      weights = weights.cpu();
    sum += weights[0][0].item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: Tensor::item() copies the value to the host [torch-sync-item]
    sum += state[0].item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: Tensor::item() copies the value to the host [torch-sync-item]
    state = state.cpu();
    state = state.to(device);
  }
  std::cout << sum << "\n";
}

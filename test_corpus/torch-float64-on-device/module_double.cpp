// torch-float64-on-device: a model converted to float64 in a program that trains on CUDA (set-up
// code: the cost is paid on every step after it), with its inputs converted to double in the step.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(64, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = std::make_shared<Net>();
  net->to(device);
  net->to(torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: module converted to float64 in a program that runs on CUDA [torch-float64-on-device]
  torch::nn::Linear head(1, 1);
  head->to(device, torch::kFloat64);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: module converted to float64 in a program that runs on CUDA: its parameters, gradients and activations become double [torch-float64-on-device]
  torch::optim::Adam opt(net->parameters());
  auto data = torch::randn({1024, 64}, torch::TensorOptions().device(device));
  for (int step = 0; step < 100; ++step) {
    auto x = data.to(torch::kDouble);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor converted to float64 on the device: most GPUs [torch-float64-on-device]
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

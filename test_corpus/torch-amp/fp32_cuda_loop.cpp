// TORCHLINT-CHECKS: -*,torch-amp
// A CUDA training loop in float32 and no autocast anywhere in the file.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 10));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

void train_step(Net &net, torch::optim::SGD &opt, const torch::Tensor &x, const torch::Tensor &y) {
  opt.zero_grad();
  auto loss = torch::nn::functional::cross_entropy(net.forward(x), y);
  loss.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: computes in float32 and the file never enables autocast [torch-amp]
  opt.step();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 100; ++i) {
    auto x = torch::randn({64, 784}, device);
    auto y = torch::randint(0, 10, {64}, torch::TensorOptions().device(device).dtype(torch::kLong));
    train_step(*net, opt, x, y);
  }
  // A second loop (fine-tuning) is the same program: one finding per file.
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({64, 784}, device)).sum().backward();
    opt.step();
  }
}

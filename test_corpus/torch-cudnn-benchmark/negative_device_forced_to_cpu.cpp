// torch-cudnn-benchmark: main() picks CUDA when it is available, then sets `device = torch::kCPU;`
// unconditionally before any use (an author forcing the CPU while debugging): the CUDA write is
// never read, so the program trains its convolutions on the host. Not reported. (The override
// inside a branch, or after the device was already used: device_override_conditional.cpp.)
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3)));
    fc = register_module("fc", torch::nn::Linear(8 * 30 * 30, 2));
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(torch::relu(conv->forward(x)).flatten(1)); }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::Linear fc{nullptr};
};

void train(std::shared_ptr<Net> net, torch::Device device, int epochs) {
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int e = 0; e < epochs; ++e) {
    torch::Tensor x = torch::rand({4, 3, 32, 32}, device);
    torch::Tensor loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  auto device = torch::kCPU;
  if (torch::cuda::is_available()) {
    std::cout << "CUDA is available\n";
    device = torch::kCUDA;
  }
  device = torch::kCPU;
  train(std::make_shared<Net>(), device, 10);
}

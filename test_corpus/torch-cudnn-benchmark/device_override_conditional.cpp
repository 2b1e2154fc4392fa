// torch-cudnn-benchmark: the look-alike of negative_device_forced_to_cpu.cpp where CUDA is still
// used: the CPU override is under a condition (a --cpu flag), so the CUDA write reaches the call.
// (A CUDA device read before the override: torch-sync-item/device_used_before_override.cpp.)
#include <torch/torch.h>
#include <cstring>

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

int main(int argc, char **argv) {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 9) on CUDA (from line 33) and trains (line 24) without the cuDNN auto-tuner [torch-cudnn-benchmark]
  auto device = torch::kCPU;
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  if (argc > 1 && std::strcmp(argv[1], "--cpu") == 0)
    device = torch::kCPU;
  train(std::make_shared<Net>(), device, 10);
}

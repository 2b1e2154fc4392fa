// torch-sync-item: the training function's device comes from main(), which picks CUDA when it is
// available and then sets `device = torch::kCPU;` unconditionally before passing it (a program
// forced onto the CPU): only the CPU write reaches the call, so the per-step item() reads a host
// tensor and costs no sync. Not reported. (A siamese network's trainer and its validation.)
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, torch::Device device, int steps) {
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < steps; ++step) {
    torch::Tensor x = torch::randn({16, 8}).to(device);
    torch::Tensor loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.item<float>() << "\n";
  }
}

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::Device(torch::kCUDA);
  device = torch::Device(torch::kCPU);
  train(torch::nn::Linear(8, 1), device, 100);
}

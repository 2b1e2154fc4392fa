// torch-sync-item: the look-alike of device_forced_to_cpu_ok.cpp where the CUDA device is used
// before the CPU override: train() runs on whatever device was picked, and only the later
// evaluation gets the CPU. Reported in train().
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
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: Tensor::item() copies the value to the host and (for a tensor on the GPU) blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 10 of train()) [torch-sync-item]
  }
}

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::Device(torch::kCUDA);
  torch::nn::Linear model(8, 1);
  train(model, device, 100);
  device = torch::Device(torch::kCPU);
  model->to(device);
}

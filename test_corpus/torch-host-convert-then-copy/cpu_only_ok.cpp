// torch-host-convert-then-copy look-alike: a CPU-only program (the device is the CPU): no bus.
#include <torch/torch.h>
#include <cstdint>
#include <vector>

int main() {
  torch::Device device(torch::kCPU);
  auto model = torch::nn::Linear(784, 10);
  torch::optim::SGD opt(model->parameters(), 0.01);
  std::vector<uint8_t> pixels(28 * 28, 3);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(torch::kFloat).div(255).to(device);
    auto loss = model->forward(x).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

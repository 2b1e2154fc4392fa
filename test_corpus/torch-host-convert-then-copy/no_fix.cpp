// torch-host-convert-then-copy without a fix-it: the conversion in the value of a local copied
// in a later statement, arithmetic written with an operator, a copy with non_blocking.
#include <torch/torch.h>
#include <cstdint>
#include <vector>

static torch::Tensor load(const std::vector<uint8_t> &p, torch::Device device) {
  auto img = torch::from_blob(const_cast<uint8_t *>(p.data()), {1, 28, 28}, torch::kByte).to(torch::kFloat32);
  return img.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the uint8 tensor is converted to float32 on the host and then copied to the device (the conversion is in the value of 'img') [torch-host-convert-then-copy]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(784, 10);
  model->to(device);
  torch::optim::Adam opt(model->parameters());
  std::vector<uint8_t> pixels(28 * 28, 3);
  std::vector<int16_t> audio(784, 5);
  for (int step = 0; step < 100; ++step) {
    auto a = load(pixels, device);
    auto f = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(torch::kFloat);
    auto b = f.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the uint8 tensor is converted to float32 on the host and then copied to the device (the conversion is in the value of 'f') [torch-host-convert-then-copy]
    auto c = (torch::from_blob(audio.data(), {1, 784}, torch::kShort).to(torch::kFloat) / 32768.0).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:100: warning: the int16 tensor is converted to float32 on the host and then copied to the device: 2 times the bytes [torch-host-convert-then-copy]
    auto d = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(torch::kFloat).to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:88: warning: the uint8 tensor is converted to float32 on the host [torch-host-convert-then-copy]
    auto loss = model->forward(a.view({1, 784}) + b + c + d).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

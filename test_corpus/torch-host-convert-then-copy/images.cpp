// torch-host-convert-then-copy: uint8 images converted to float on the host, then copied to the
// GPU: four times the bytes cross the bus. The fix-it moves the copy next to the uint8 tensor
// where every step between is value-preserving (a dtype conversion, scalar arithmetic, a view).
#include <torch/torch.h>
#include <cstdint>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Conv2d(3, 8, 3);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  std::vector<uint8_t> pixels(4 * 3 * 32 * 32, 7);
  for (int step = 0; step < 100; ++step) {
    auto raw = torch::from_blob(pixels.data(), {4, 32, 32, 3}, torch::kByte);
    auto x = raw.permute({0, 3, 1, 2}).to(torch::kFloat).div(255).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the uint8 tensor is converted to float32 on the host and then copied to the device: 4 times the bytes cross the bus [torch-host-convert-then-copy]
    // CHECK-FIXES: auto x = raw.to(device).permute({0, 3, 1, 2}).to(torch::kFloat).div(255);
    auto y = torch::from_blob(pixels.data(), {4, 3, 32, 32}, torch::kUInt8).to(torch::kHalf).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:94: warning: the uint8 tensor is converted to float16 on the host and then copied to the device: 2 times the bytes [torch-host-convert-then-copy]
    // CHECK-FIXES: auto y = torch::from_blob(pixels.data(), {4, 3, 32, 32}, torch::kUInt8).cuda().to(torch::kHalf);
    auto z = raw.to(device, torch::kFloat);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the uint8 tensor is copied with `.to(device, dtype)`, which converts it to float32 on the host before the copy: 4 times the bytes [torch-host-convert-then-copy]
    // CHECK-FIXES: auto z = raw.to(device).to(torch::kFloat);
    auto loss = model->forward(x).mean() + y.to(torch::kFloat).mean() + z.mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

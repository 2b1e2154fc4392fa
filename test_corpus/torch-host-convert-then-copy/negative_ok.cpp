// torch-host-convert-then-copy look-alikes: the copy first and the conversion on the device;
// float source data (the conversion changes nothing); a narrowing conversion before the copy
// (float64 to float32 halves the bytes: right as it is); a tensor already on the device; the
// whole data set converted once in set-up code; a copy back to the host.
#include <torch/torch.h>
#include <cstdint>
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(784, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  std::vector<uint8_t> pixels(28 * 28, 3);
  std::vector<float> feats(784, 0.5f);
  std::vector<double> wide(784, 0.25);
  auto all = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(torch::kFloat).div(255).to(device);
  auto on_dev = torch::zeros({1, 784}, torch::TensorOptions().dtype(torch::kByte).device(device));
  for (int step = 0; step < 100; ++step) {
    auto a = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(device).to(torch::kFloat).div(255);
    auto b = torch::from_blob(feats.data(), {1, 784}).to(torch::kFloat).to(device);
    auto c = torch::from_blob(wide.data(), {1, 784}, torch::kDouble).to(torch::kFloat).to(device);
    auto d = on_dev.to(torch::kFloat).to(device);
    auto e = torch::from_blob(pixels.data(), {1, 784}, torch::kByte).to(torch::kFloat).to(torch::kCPU);
    auto loss = model->forward(a + b + c + d + all + e.to(device)).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

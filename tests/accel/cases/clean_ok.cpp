/* Clean code: the accelerated run must stay as quiet as the plugin. */
#include <torch/torch.h>
#include <iostream>

struct FakeTensor {
  float item() const { return 1.f; }
};

int main() {
  auto loss = torch::zeros({1});
  torch::Tensor total = torch::zeros({1});
  FakeTensor f;
  float x = 0;
  for (int step = 0; step < 100; ++step) {
    total += loss.detach(); // stays on the device
    x += f.item();           // looks alike, not a tensor
  }
  std::cout << total.item<float>() << x << "\n"; // once, after the loop
  return 0;
}

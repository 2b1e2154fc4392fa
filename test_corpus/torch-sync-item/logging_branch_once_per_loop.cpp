// `if (i % N == 0)` inside a loop that counts i from 0 to below K <= N is true once per run of that
// loop, not once every N steps: when the loop runs on every training step, so does the branch.
// A real logging branch (the step counter, or a loop longer than N) stays quiet.
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::Device device(torch::kCUDA);
  auto actor = torch::nn::Linear(8, 2);
  actor->to(device);
  torch::optim::Adam opt(actor->parameters(), 1e-3);
  for (int step = 0; step < 100000; ++step) {
    auto state = torch::randn({32, 8}, device);
    for (int inner = 0; inner < 5; ++inner) {
      auto loss = actor(state).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (inner % 5 == 0)
        std::cout << loss.item<float>() << "\n";
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: Tensor::item() copies the value to the host [torch-sync-item]
      if (inner % 10 == 3)
        std::cout << loss.item<float>() << "\n"; // at most once per run of the loop: per step too
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: Tensor::item() copies the value to the host [torch-sync-item]
    }
    for (int k = 0; k < 20; ++k) {
      auto loss = actor(state).sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (k % 5 == 0)
        std::cout << loss.item<float>() << "\n"; // four times per step, a quarter of the inner steps
    }
    if (step % 125 == 119 && step > 500)
      std::cout << actor->weight.sum().item<float>() << "\n"; // once every 125 steps: quiet
  }
  return 0;
}

// torch-sync-item: a block guarded by `step % N == R` with R != 0 runs once every N steps,
// exactly like `step % N == 0`, and is a rare path (logging, checkpointing). Seen in an RL trainer
// that reports and saves every 125th step with `z % 125 == 119`. The item() per step stays a finding.
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(16, 1);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  std::vector<float> history;
  for (int step = 0; step < 100000; ++step) {
    auto x = torch::randn({64, 16}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    history.push_back(loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: (in the loop at line 13 of main()) [torch-sync-item]
    if ((step % 125 == 119) && (step > 500)) {
      float mean = net->weight.mean().item<float>(); // once every 125 steps: no finding
      std::cout << "step " << step << " mean weight " << mean << "\n";
      torch::save(net, "net.pt");
    }
    if (step % 1000 == 999)
      std::cout << net->bias.item<float>() << "\n"; // once every 1000 steps: no finding
  }
}

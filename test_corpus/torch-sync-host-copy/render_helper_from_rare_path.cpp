// torch-sync-host-copy: a whole-image render helper called only from a visualisation branch
// (`step % vis_every == 0`) and after training copies its inputs to the host once, before its own chunk
// loop, and the result once after it. Neither copy runs per step; the helper's chunk loop runs a forward
// but is an evaluation loop, not the training step. Seen in a NeRF trainer. The training loop's own
// per-step sync is the positive control.
#include <torch/torch.h>
#include <iostream>

struct Runner {
  torch::nn::Linear field{torch::nn::LinearOptions(6, 3)};
  torch::Device device{torch::kCUDA};

  torch::Tensor renderWholeImage(torch::Tensor rays) {
    torch::NoGradGuard no_grad;
    rays = rays.to(torch::kCPU); // once per render: no finding
    const int64_t n = rays.size(0);
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < n; i += 8192) {
      auto chunk = rays.slice(0, i, std::min(n, i + 8192)).to(device);
      parts.push_back(field->forward(chunk));
    }
    return torch::cat(parts).to(torch::kCPU); // once per render: no finding
  }

  void train(int iters, int visEvery) {
    field->to(device);
    torch::optim::Adam opt(field->parameters(), 1e-2);
    for (int step = 1; step <= iters; ++step) {
      auto rays = torch::randn({4096, 6}, device);
      auto loss = field->forward(rays).square().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      std::cout << loss.to(torch::kCPU) << "\n";
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: (in the loop at line 28 of Runner::train()) [torch-sync-host-copy]
      if (step % visEvery == 0)
        renderWholeImage(torch::randn({640 * 480, 6}, device));
    }
    renderWholeImage(torch::randn({640 * 480, 6}, device));
  }
};

int main() { Runner().train(10000, 500); }

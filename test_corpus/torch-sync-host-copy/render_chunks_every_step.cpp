// Look-alike of render_chunks_from_logging_branch.cpp: the same chunked renderer, but the training
// loop calls the preview on every step (and again under a logging branch): its per-chunk copies
// run on every step and stay warnings, in one file alone as in the project model.
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Runner {
  torch::nn::Linear field{torch::nn::LinearOptions(6, 3)};
  torch::Device device{torch::kCUDA};

  torch::Tensor renderImage(const torch::Tensor &rays) {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < rays.size(0); i += 8192) {
      auto out = field->forward(rays.slice(0, i, i + 8192));
      parts.push_back(out.detach().to(torch::kCPU));
      // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: (in the loop at line 15 of Runner::renderImage()) [torch-sync-host-copy]
    }
    return torch::cat(parts);
  }

  void preview() { std::cout << renderImage(torch::randn({1024, 6}, device)).mean() << "\n"; }

  void train(int iters) {
    field->to(device);
    torch::optim::Adam opt(field->parameters(), 1e-2);
    for (int step = 1; step <= iters; ++step) {
      auto loss = field->forward(torch::randn({4096, 6}, device)).square().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      preview();
      if (step % 500 == 0)
        preview();
    }
  }
};

int main() { Runner().train(10000); }

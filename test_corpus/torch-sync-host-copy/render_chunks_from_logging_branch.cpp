// torch-sync-host-copy in one file alone: a renderer whose chunk loop copies each chunk's result to
// the host, reached from the training loop only through a visualisation branch
// (`step % visEvery == 0`) and from an evaluation pass after training. Its copies run many times,
// but only on the steps that visualise: a remark naming the branch, not a warning (as the project
// model says of the same code across files). visualize()'s own copy, once per interval, is what the
// advice asks for: no finding. The per-step copy in the training loop is the positive control;
// render_chunks_every_step.cpp is the look-alike called on every step.
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Runner {
  torch::nn::Linear field{torch::nn::LinearOptions(6, 3)};
  torch::Device device{torch::kCUDA};
  std::vector<torch::Tensor> testRays;

  torch::Tensor renderImage(const torch::Tensor &rays) {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < rays.size(0); i += 8192) {
      auto out = field->forward(rays.slice(0, i, i + 8192));
      parts.push_back(out.detach().to(torch::kCPU));
      // CHECK-MESSAGES: :[[@LINE-1]]:36: remark: a remark, not a warning: Runner::visualize() is called at render_chunks_from_logging_branch.cpp:45, where it only runs in the logging branch `if (step % 500 == 0)` at line 44 (in the loop at line 20 of Runner::renderImage()) [torch-sync-host-copy]
    }
    return torch::cat(parts);
  }

  void visualize(int idx) {
    auto image = renderImage(torch::randn({640 * 480, 6}, device));
    auto target = testRays[idx].to(torch::kCPU); // once per interval: no finding
    std::cout << image.sizes() << target.sizes() << "\n";
  }

  void train(int iters) {
    field->to(device);
    torch::optim::Adam opt(field->parameters(), 1e-2);
    for (int step = 1; step <= iters; ++step) {
      auto loss = field->forward(torch::randn({4096, 6}, device)).square().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      std::cout << loss.to(torch::kCPU) << "\n";
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: (in the loop at line 37 of Runner::train()) [torch-sync-host-copy]
      if (step % 500 == 0)
        visualize(step % 4);
    }
  }

  void testAll() {
    for (const auto &rays : testRays) // after training, once: no step
      std::cout << renderImage(rays).mean() << "\n";
  }
};

int main() {
  Runner r;
  r.train(10000);
  r.testAll();
}

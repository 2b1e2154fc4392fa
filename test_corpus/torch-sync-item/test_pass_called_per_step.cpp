// torch-sync-item, look-alike of test_pass_after_training_ok.cpp: the same runner, but the training
// loop scores a test image on every step (a PSNR curve logged per step). The scorer's item() now runs
// per step and is reported; the copy of the rendering's colours to the host as well.
// TORCHLINT-CHECKS: -*,torch-sync-item,torch-sync-host-copy
#include <torch/torch.h>
#include <cmath>
#include <iostream>
#include <vector>

struct Runner {
  torch::nn::Linear field{torch::nn::LinearOptions(6, 3)};
  torch::Device device{torch::kCUDA};
  std::vector<torch::Tensor> test_rays, test_images;
  std::vector<float> curve;
  int64_t iters = 20000;

  float scoreImage(size_t i) {
    torch::NoGradGuard no_grad;
    auto pred = field->forward(test_rays[i].to(device)).detach().to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:66: warning: .to(<CPU device>) copies the tensor to host memory [torch-sync-host-copy]
    return (pred - test_images[i]).square().mean().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }

  void train() {
    torch::optim::Adam opt(field->parameters(), 1e-3);
    for (int64_t step = 0; step < iters; ++step) {
      auto rays = torch::rand({4096, 6}, device);
      auto loss = field->forward(rays).square().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      curve.push_back(scoreImage(step % test_rays.size()));
    }
  }
};

void runTraining(Runner &r) { r.train(); }

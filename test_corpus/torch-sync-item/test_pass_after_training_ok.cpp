// torch-sync-item and torch-sync-host-copy, negative: a renderer-style runner (no main() in this
// file: another file calls execute()) trains in train() and, in other modes, renders and scores the
// test images once. The test pass copies each image to the host and reads its PSNR with item(): once
// per test image of a run, never per training step, so nothing here is reported. Decided from this
// file alone (model/LocalModel.h): execute() holds the training loop, so it runs once per run, and
// what it calls outside the step loop (testImages(), and renderWhole() from testImages()'s loop,
// which runs no step) runs outside the step. Seen in NeRF-style trainers. The look-alike test_pass_called_per_step.cpp calls the scorer
// from the step loop.
// TORCHLINT-CHECKS: -*,torch-sync-item,torch-sync-host-copy
#include <torch/torch.h>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

struct Runner {
  torch::nn::Linear field{torch::nn::LinearOptions(6, 3)};
  torch::Device device{torch::kCUDA};
  std::vector<torch::Tensor> test_rays, test_images;
  int64_t iters = 20000;

  torch::Tensor renderWhole(torch::Tensor rays) {
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < rays.size(0); i += 4096)
      parts.push_back(field->forward(rays.slice(0, i, std::min(rays.size(0), i + 4096)).to(device)).detach());
    return torch::cat(parts).to(torch::kCPU);
  }

  void train() {
    torch::optim::Adam opt(field->parameters(), 1e-3);
    for (int64_t step = 0; step < iters; ++step) {
      auto rays = torch::rand({4096, 6}, device);
      auto loss = field->forward(rays).square().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }

  void testImages() {
    float psnr_sum = 0.f;
    for (size_t i = 0; i < test_rays.size(); ++i) {
      auto pred = renderWhole(test_rays[i]);
      float mse = (pred - test_images[i].to(torch::kCPU)).square().mean().item<float>();
      float psnr = -10.f * std::log10(mse);
      std::cout << i << ": " << psnr << "\n";
      psnr_sum += psnr;
    }
    std::cout << "mean " << psnr_sum / test_rays.size() << "\n";
  }

  void execute(const std::string &mode) {
    if (mode == "train")
      train();
    else if (mode == "test")
      testImages();
  }
};

void runMode(Runner &r, const std::string &mode) { r.execute(mode); }

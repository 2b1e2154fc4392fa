#include "renderer.h"
#include <vector>

int main() {
  torch::Device device(torch::kCUDA);
  Renderer r;
  r.field->to(device);
  torch::optim::Adam opt(r.field->parameters(), 1e-2);
  std::vector<float> psnr;
  for (int step = 0; step < 20000; ++step) {
    auto pts = torch::rand({8192, 3}, device);
    auto target = torch::rand({8192, 3}, device);
    auto loss = (r.render(pts) - target).square().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    psnr.push_back(-10.0f * std::log10(loss.item<float>()));
    // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: (in the loop at line 10 of main()) [torch-sync-item]
  }
}

// torch-sync-host-copy, pending: `images_[i].to(kCPU)` on a member that another file fills with host
// tensors is a no-op, not a device-to-host copy; the test loop's comparison of two host tensors syncs
// nothing (torch-sync-item should agree). Seen in a NeRF trainer's visualisation and test code. The per-step copy of the device loss is
// the positive control.
#include "dataset.h"
#include <iostream>

int main() {
  torch::Device device(torch::kCUDA);
  ImageSet data("scene");
  torch::nn::Linear net(3, 3);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 1000; ++step) {
    auto img = data.images_[step % data.count()].to(device).view({-1, 3});
    auto loss = (net->forward(img) - img).square().mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.to(torch::kCPU) << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: (in the loop at line 14 of main()) [torch-sync-host-copy]
  }
  torch::NoGradGuard no_grad;
  double err = 0;
  for (int64_t i = 0; i < data.count(); ++i) {
    auto truth = data.images_[i].to(torch::kCPU).view({-1, 3}); // host to host: no finding
    auto pred = data.rendered_[i].view({-1, 3});                // host too (dataset.cpp)
    err += (pred - truth).square().mean().item<double>();      // host read: no sync
  }
  std::cout << err << "\n";
}

// A helper whose every call sits in a logging branch runs once per logging interval: that is what
// the advice asks for, and its item() is not reported. A helper also called outside the branch
// stays a warning; one whose reads sit in an assert() stays a remark.
#include <torch/torch.h>
#include <cassert>
#include <iostream>

void print_progress(const torch::Tensor &loss, int step) {
  std::cout << "step " << step << " loss " << loss.item<float>() << std::endl; // quiet
}

float read_loss(const torch::Tensor &loss) { return loss.item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: Tensor::item() copies the value to the host [torch-sync-item]

void check_finite(const torch::Tensor &loss) {
  assert(std::isfinite(loss.item<float>()));
  // CHECK-MESSAGES: :[[@LINE-1]]:29: remark: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` (`ok` a bool tensor, true when valid: nothing waits, and a failure is raised at a later synchronization), or run the check every N steps; a remark, not a warning: it is inside assert(), which NDEBUG (release) builds compile out [torch-sync-item]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 1);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  float last = 0;
  for (int step = 0; step < 1000; ++step) {
    auto loss = net(torch::randn({16, 8}, device)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0)
      print_progress(loss, step);
    if (step % 100 == 0)
      last = read_loss(loss);
    last += read_loss(loss);
    check_finite(loss);
  }
  print_progress(torch::zeros({}, device), -1); // once, after training: no step
  return last > 0;
}

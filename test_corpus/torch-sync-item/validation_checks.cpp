// torch-sync-item: reads whose value only decides whether the program fails (issue 25's
// "messages that fit the code"). A NaN check, a TORCH_CHECK and an assert() on a device tensor
// wait for the GPU on every step, but there is nothing to accumulate: the advice is to check on
// the device (at::_assert_async) or less often. Look-alikes keep their own advice: an early stop
// (`break`), a best-loss branch that saves, and a message printed without failing.
#include <torch/torch.h>
#include <cassert>
#include <cmath>
#include <iostream>
#include <stdexcept>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(16, 1);
  net->to(device);
  torch::optim::Adam opt(net->parameters());
  float best = 1e9f;
  for (int step = 0; step < 10000; ++step) {
    auto x = torch::randn({32, 16}, device);
    auto loss = net->forward(x).square().mean();
    if (loss.isnan().any().item<bool>())
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` (`ok` a bool tensor, true when valid: nothing waits, and a failure is raised at a later synchronization), or run the check every N steps or in debug builds only (in the loop at line 18 of main()) [torch-sync-item]
      throw std::runtime_error("loss is NaN");
    TORCH_CHECK(loss.isfinite().item<bool>(), "non-finite loss at step ", step);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead [torch-sync-item]
    assert(x.abs().max().item<float>() < 100.0f);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: remark: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` (`ok` a bool tensor, true when valid: nothing waits, and a failure is raised at a later synchronization), or run the check every N steps; a remark, not a warning: it is inside assert(), which NDEBUG (release) builds compile out [torch-sync-item]
    assert(!std::isnan(loss.item<float>()));
    // CHECK-MESSAGES: :[[@LINE-1]]:29: remark: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead with `at::_assert_async(ok)` [torch-sync-item]
    if (!loss.isfinite().all().item<bool>()) {
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work, only to decide whether to fail; check on the device instead [torch-sync-item]
      std::cerr << "diverged at step " << step << "\n";
      std::abort();
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    // Look-alikes: the value decides more than a failure.
    if (loss.item<float>() < 1e-4f)
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 18 of main()) [torch-sync-item]
      break;
    if (loss.item<float>() < best) {
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device [torch-sync-item]
      best = loss.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device [torch-sync-item]
      torch::save(net, "best.pt");
    }
    if (x.abs().max().item<float>() > 10.0f) {
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device [torch-sync-item]
      std::cerr << "large input at step " << step << "\n";
      continue;
    }
  }
}

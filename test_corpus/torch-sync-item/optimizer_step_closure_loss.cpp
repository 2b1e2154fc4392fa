// Optimizer::step(closure) returns the closure's loss, and an undefined tensor without a closure.
// A wrapper that forwards its caller's closure (a loss scaler, a trainer's step helper) and reads the
// returned loss only when it is defined reads nothing for a caller that passes no closure: the read
// is that caller's to pay, not the wrapper's. A loop that passes its own closure and reads the
// loss it gets back still syncs on every step.
#include <torch/torch.h>
#include <iostream>
#include <optional>

struct StepHelper {
  // The closure is the caller's (a parameter, nullptr by default).
  std::optional<double> step(torch::optim::Optimizer &opt, torch::optim::Optimizer::LossClosure closure = nullptr) {
    auto returned = opt.step(closure);
    if (returned.defined())
      return returned.item<double>();
    return std::nullopt;
  }
  std::optional<double> stepPlain(torch::optim::Optimizer &opt) {
    torch::Tensor res = opt.step(nullptr);
    if (res.defined())
      return res.item<double>();
    return std::nullopt;
  }
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(16, 1);
  net->to(device);
  torch::optim::SGD sgd(net->parameters(), 0.1);
  StepHelper helper;
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({64, 16}, device);
    sgd.zero_grad();
    auto loss = net(x).pow(2).mean();
    loss.backward();
    helper.step(sgd);      // no closure: the helper reads nothing
    helper.stepPlain(sgd); // same
    // A closure of this loop: its loss is read on every step.
    auto closure = [&] {
      sgd.zero_grad();
      auto l = net(x).pow(2).mean();
      l.backward();
      return l;
    };
    auto closureLoss = sgd.step(closure);
    std::cout << closureLoss.item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: Tensor::item() copies the value to the host [torch-sync-item]
  }
  return 0;
}

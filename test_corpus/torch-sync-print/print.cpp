// Printing device tensors in the step: every step warns; inside a logging branch it runs once per
// logging interval, which is what the advice asks for: nothing to say.
#include <torch/torch.h>
#include <iostream>
#include <sstream>

void log_tensor(std::ostream &os, const torch::Tensor &t) {
  os << "t = " << t << "\n";
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: printing a tensor copies its values to the host [torch-sync-print]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({4}, device);
  for (int step = 0; step < 100; ++step) {
    auto loss = (w * w).sum();
    std::cout << loss << std::endl;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: printing a tensor copies its values to the host [torch-sync-print]
    std::ostringstream ss;
    log_tensor(ss, w);
    torch::print(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: printing a tensor [torch-sync-print]
    w.print();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: printing a tensor [torch-sync-print]
    if (step % 10 == 0) {
      std::cout << "loss " << loss << std::endl;
      // once every 10 steps: quiet
    }
  }
}

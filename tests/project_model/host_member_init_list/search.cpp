#include "node.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    at::Tensor out = net.forward(torch::randn({9}, at::kCUDA));
    HostNode host(out.detach());
    host.add_noise(0.25, torch::rand({9}));
    DeviceNode device(out.detach());
    for (int sim = 0; sim < 64; ++sim) {
      // Host members, filled in node.cpp: reading them costs no sync.
      float best = host.P.sum().item<float>();
      float visits = host.N.sum().item<float>();
      // The device tensor itself: each read waits for the step's kernels.
      float dev = device.P.sum().item<float>();
      (void)(best + visits + dev);
    }
    opt.zero_grad();
    out.sum().backward();
    opt.step();
  }
}

// The all-reduce hides in a helper called on every iteration; the step runs every accum_steps.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(16, 16)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

static void average_gradients(Net &net, c10d::ProcessGroup &pg) {
  for (auto &p : net.parameters()) {
    std::vector<at::Tensor> one{p.grad()};
    pg.allreduce(one)->wait();
  }
}

void train(Net &net, torch::optim::Adam &opt, c10d::ProcessGroup &pg, int accum_steps) {
  for (int step = 0; step < 100; ++step) {
    auto loss = net.forward(torch::randn({8, 16})).sum();
    loss.backward();
    average_gradients(net, pg);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: N-1 of every N all-reduces are wasted (N = accum_steps) [torch-ddp-no-sync]
    if (step % accum_steps == accum_steps - 1) {
      opt.step();
      opt.zero_grad();
    }
  }
}

int main() { return 0; }

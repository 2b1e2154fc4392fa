#include "env.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void train(Net &net, torch::optim::SGD &opt, Simulator &sim) {
  // Built with make_shared: the constructors' arguments are where the fields live.
  auto bounds = std::make_shared<Bounds>(torch::zeros({1}), torch::ones({1}));
  auto scale = std::make_shared<Scale>(torch::ones({1}, at::TensorOptions(at::kCUDA)));
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor loss = net.forward(torch::randn({8}, at::TensorOptions(at::kCUDA))).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    Observation o = sim.step(torch::zeros({4}));
    total += o.reward.item<float>();        // a host reward: quiet
    total += bounds->low().item<float>();   // a host bound: quiet
    total += scale->value().item<float>();  // a device scale: a sync per step
  }
  std::cout << total;
}

#include "bounds.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void train(Net &net, torch::optim::SGD &opt, const torch::Device &constraint_device) {
  auto box = std::make_shared<Box>(torch::zeros({1}));
  Constraint &constraint = *box;
  constraint.to(constraint_device); // the CPU at every call: the buffer stays on the host
  box->to(torch::kFloat);            // a dtype: moves nothing
  auto holder = std::make_shared<Holder>();
  holder->to(torch::kCUDA);          // moves the Scale it registers
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor loss = net.forward(torch::randn({8}, at::TensorOptions(at::kCUDA))).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += box->low().item<float>();      // a host buffer: quiet
    total += holder->inner().item<float>(); // a parameter moved to the GPU: a sync per step
  }
  std::cout << total;
}

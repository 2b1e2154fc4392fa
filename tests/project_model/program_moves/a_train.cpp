#include "bounds.h"

void a_train(Net &net, torch::optim::SGD &opt) {
  auto box = std::make_shared<Box>(torch::zeros({1}));
  Constraint &constraint = *box;
  constraint.to(torch::kCUDA); // this program moves its constraints to the GPU
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor loss = net.forward(torch::randn({8}, at::TensorOptions(at::kCUDA))).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += box->low().item<float>();
  }
  std::cout << total;
}

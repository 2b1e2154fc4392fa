#include "env.h"

Policy *make_policy();

void gpu_train(PolicyNet &net, torch::optim::SGD &opt, Env &env, Monitor &monitor) {
  at::Tensor state = torch::zeros({4}, at::TensorOptions(at::kCUDA));
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor out = net.forward(state);
    at::Tensor loss = out.sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += env.step(out.to(torch::kCPU));
    total += monitor.observe(make_policy()->sample());
  }
  std::cout << total;
}

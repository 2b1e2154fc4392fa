// torch-autograd-history: `total = total + loss` and `total.add_(loss)`: the same history kept as
// `total += loss`.
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(4, 1);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  torch::Tensor running = torch::zeros({});
  torch::Tensor sum = torch::zeros({});
  for (int step = 0; step < 1000; ++step) {
    auto pred = model(torch::randn({32, 4}));
    auto loss = (pred - torch::randn({32, 1})).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    running = running + loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'running' keeps every step's autograd graph alive: 'loss' (computed from a module's output or a loss) requires grad [torch-autograd-history]
    sum.add_(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'sum' keeps every step's autograd graph alive [torch-autograd-history]
  }
  std::cout << running.item<double>() << sum.item<double>() << "\n";
  return 0;
}

// torch-autograd-history: a loss written per minibatch into a long-lived metrics tensor with
// index_put_ (or through a subscript) after backward(). The write is recorded (CopySlices), so the
// metrics tensor chains every minibatch's graph until it is destroyed: memory grows per step. The
// other metrics are stored detached, the loss is not. (Look-alikes: index_write_ok.cpp.)
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

struct Stats {
  torch::Tensor loss = torch::zeros({100, 50});
  torch::Tensor grad_norm = torch::zeros({100, 50});
  torch::Tensor last = torch::zeros({50});
};

int main() {
  auto net = std::make_shared<Net>();
  torch::optim::SGD opt(net->parameters(), 0.01);
  Stats stats;
  for (int64_t epoch = 0; epoch < 100; ++epoch) {
    for (int64_t mb = 0; mb < 50; ++mb) {
      torch::Tensor x = torch::randn({64, 8}), y = torch::randn({64, 1});
      torch::Tensor loss = torch::mse_loss(net->forward(x), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      stats.loss.index_put_({epoch, mb}, loss);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'stats.loss' keeps every step's autograd graph alive: 'loss' (a loss) requires grad, so writing it into 'stats.loss' is recorded (CopySlices) and chains every step's graph through 'stats.loss' until it is destroyed; write 'loss.detach()' (or read 'loss.item()' once per logging interval) [torch-autograd-history]
      stats.grad_norm.index_put_({epoch, mb}, net->fc->weight.grad().norm());
      stats.last[mb] = loss;
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'stats.last' keeps every step's autograd graph alive: 'loss' (a loss) requires grad, so writing it into 'stats.last' is recorded (CopySlices) and chains every step's graph through 'stats.last' until it is destroyed; write 'loss.detach()' (or read 'loss.item()' once per logging interval) [torch-autograd-history]
    }
  }
}

// torch-optimizer-in-loop: optimizers rebuilt per epoch (often to change the learning rate) and
// per step, directly, through std::make_unique, and in a function the epoch loop calls.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

void train_epoch(std::shared_ptr<Net> net, double lr) {
  torch::optim::RMSprop opt(net->parameters(), torch::optim::RMSpropOptions(lr));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: torch::optim::RMSprop constructed in train_epoch(), called on every iteration of the epoch loop at line 45 of main() starts with empty state each epoch: its running averages of squared gradients are thrown away [torch-optimizer-in-loop]
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  auto net = std::make_shared<Net>();
  double lr = 1e-3;
  for (int epoch = 0; epoch < 10; ++epoch) {
    torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(lr * std::pow(0.9, epoch)));
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: torch::optim::Adam constructed on every iteration of the epoch loop at line 25 starts with empty state each epoch: its moment estimates and step counts are thrown away, so every epoch restarts the optimizer (a different training, not only a cost); construct it once, before the loop (to change the learning rate, set it on the existing optimizer's param_groups(): group.options().set_lr(lr)) [torch-optimizer-in-loop]
    for (int step = 0; step < 100; ++step) {
      auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: torch::optim::SGD constructed on every iteration of the epoch loop at line 35 starts with empty state each epoch: its momentum buffers are thrown away [torch-optimizer-in-loop]
    for (int step = 0; step < 100; ++step) {
      auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
      opt->zero_grad();
      loss.backward();
      opt->step();
    }
  }
  for (int epoch = 0; epoch < 10; ++epoch)
    train_epoch(net, lr);
  for (int step = 0; step < 100; ++step) {
    torch::optim::AdamW opt(net->parameters());
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: torch::optim::AdamW constructed on every step starts with empty state each time: its moment estimates and step counts are thrown away and allocated again, so every step is the optimizer's first (a different training, not only a cost); construct it once, before the loop (to change the learning rate, set it on the existing optimizer's param_groups(): group.options().set_lr(lr)) (in the loop at line 47 of main()) [torch-optimizer-in-loop]
    auto loss = net->forward(torch::randn({16, 8})).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

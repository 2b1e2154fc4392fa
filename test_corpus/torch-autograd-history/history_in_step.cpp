// torch-autograd-history: the step's loss and outputs kept with their graphs across steps: a
// running total, a list of losses, a history of outputs in a member, and through a helper.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

struct Trainer {
  std::shared_ptr<Net> net = std::make_shared<Net>();
  torch::optim::Adam opt{net->parameters()};
  std::vector<torch::Tensor> history_;

  void step(const torch::Tensor &x, const torch::Tensor &y) {
    auto out = net->forward(x);
    history_.push_back(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'history_' keeps every step's autograd graph alive: 'out' (the output of a module's forward()) requires grad [torch-autograd-history]
    auto loss = torch::mse_loss(out, y);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
};

int main() {
  auto net = std::make_shared<Net>();
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  Trainer trainer;
  for (int epoch = 0; epoch < 10; ++epoch) {
    torch::Tensor total = torch::zeros({});
    std::vector<torch::Tensor> losses;
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({16, 8});
      auto y = torch::randint(0, 2, {16});
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss;
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'total' keeps every step's autograd graph alive: 'loss' (a loss) requires grad, so 'total' records the accumulation and references every step's graph, a chain that grows by one step's graph per step until 'total' is destroyed; accumulate 'total += loss.detach()' and read it with item() once per epoch (in the loop at line 34 of main()) [torch-autograd-history]
      losses.push_back(loss * 0.5);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'losses' keeps every step's autograd graph alive: 'loss * 0.5' (computed from a module's output or a loss) requires grad [torch-autograd-history]
      trainer.step(x, torch::randn({16, 2}));
    }
    std::cout << total.item<float>() / 100 << " " << losses.size() << "\n";
  }
  return 0;
}

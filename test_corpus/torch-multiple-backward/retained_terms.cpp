// torch-multiple-backward: one backward() per loss term of a shared trunk, the earlier ones with
// retain_graph, then one step(): in the training loop and in a step function it calls.
#include <torch/torch.h>

struct TwoHeads : torch::nn::Module {
  TwoHeads()
      : trunk(register_module("trunk", torch::nn::Linear(16, 32))),
        cls(register_module("cls", torch::nn::Linear(32, 4))),
        reg(register_module("reg", torch::nn::Linear(32, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    auto h = torch::relu(trunk(x));
    return {cls(h), reg(h)};
  }
  torch::nn::Linear trunk, cls, reg;
};

void train_step(TwoHeads &net, torch::optim::Optimizer &opt, bool retain) {
  auto [logits, value] = net.forward(torch::randn({8, 16}));
  auto l1 = torch::nn::functional::cross_entropy(logits, torch::randint(0, 4, {8}));
  auto l2 = value.pow(2).mean();
  opt.zero_grad();
  l1.backward({}, retain);
  l2.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: 2 backward() calls in one step, the earlier with retain_graph [torch-multiple-backward]
  opt.step();
}

int main() {
  auto net = std::make_shared<TwoHeads>();
  torch::optim::Adam opt(net->parameters());
  for (int step = 0; step < 100; ++step) {
    auto [logits, value] = net->forward(torch::randn({8, 16}));
    auto ce = torch::nn::functional::cross_entropy(logits, torch::randint(0, 4, {8}));
    auto mse = torch::mse_loss(value, torch::randn({8, 1}));
    auto l1 = logits.abs().mean();
    opt.zero_grad();
    ce.backward(/*gradient=*/{}, /*retain_graph=*/true);
    mse.backward({}, true);
    l1.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 3 backward() calls in one step, the earlier with retain_graph: the loss terms share a graph, so each call runs the shared part of the backward pass again and the retained graph keeps its saved activations until the last call; call backward() once on the sum ('(ce + mse + l1).backward()'), which runs every node once and needs no retain_graph (same gradients up to summation order) (in the loop at line 31 of main()) [torch-multiple-backward]
    opt.step();
    train_step(*net, opt, true);
  }
  return 0;
}

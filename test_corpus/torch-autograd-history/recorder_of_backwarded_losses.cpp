// torch-autograd-history: the update returns its losses in a struct after calling backward() on
// the total, and a recorder with no loop of its own, called after every update, writes the total
// into long-lived metrics. The write is recorded (CopySlices) and the stored element references
// its graph, so every update's graph nodes stay reachable for the whole run; nothing can
// differentiate that loss again (its backward() already freed what it saved). The detached field
// next to it is fine. (Look-alikes: recorder_of_backwarded_losses_ok.cpp.)
#include <torch/torch.h>

struct Regressor : torch::nn::Module {
  Regressor() { head = register_module("head", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};

struct UpdateLosses {
  torch::Tensor total;
  torch::Tensor spread;
};

UpdateLosses update(Regressor &net, torch::optim::Optimizer &opt, const torch::Tensor &x, const torch::Tensor &y) {
  UpdateLosses out;
  torch::Tensor pred = net.forward(x);
  out.total = torch::mse_loss(pred, y);
  out.spread = pred.std().detach();
  opt.zero_grad();
  out.total.backward();
  opt.step();
  return out;
}

struct RunHistory {
  torch::Tensor totals = torch::zeros({20, 64});
  torch::Tensor spreads = torch::zeros({20, 64});
  std::vector<torch::Tensor> scaled;

  void record(int64_t epoch, int64_t batch, const UpdateLosses &l) {
    totals.index_put_({epoch, batch}, l.total.reshape({1}));
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'totals' keeps every step's autograd graph alive: 'l.total.reshape({1})' (a loss that backward() was called on) requires grad, so writing it into 'totals' is recorded (CopySlices) and chains every step's graph through 'totals' until it is destroyed; write 'l.total.reshape({1}).detach()' (or read 'l.total.reshape({1}).item()' once per logging interval) [torch-autograd-history]
    spreads.index_put_({epoch, batch}, l.spread);
    scaled.push_back(l.total * 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'scaled' keeps every step's autograd graph alive: 'l.total * 0.5' (a loss that backward() was called on) requires grad, so each stored element references its step's graph (its nodes, and what backward() did not free) until the container is destroyed; store '(l.total * 0.5).detach()' (or read '(l.total * 0.5).item()' once per logging interval) [torch-autograd-history]
  }
};

int main() {
  Regressor net;
  torch::optim::Adam opt(net.parameters(), 1e-3);
  RunHistory history;
  for (int64_t epoch = 0; epoch < 20; ++epoch) {
    for (int64_t batch = 0; batch < 64; ++batch) {
      torch::Tensor x = torch::randn({32, 4}), y = torch::randn({32, 1});
      UpdateLosses l = update(net, opt, x, y);
      history.record(epoch, batch, l);
    }
  }
}

// torch-autograd-history: look-alikes of recorder_of_backwarded_losses.cpp that keep no graph.
// The recorder stores the differentiated loss detached, or under a NoGradGuard; a recorder called
// once after training, not per update; a recorder that writes into a tensor of its own call; a
// recorder called from an evaluation loop that never trains (torch-eval-no-grad's business); a
// field never differentiated (a detached statistic).
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

UpdateLosses measure(Regressor &net, const torch::Tensor &x, const torch::Tensor &y) {
  torch::NoGradGuard no_grad;
  return {torch::mse_loss(net.forward(x), y), torch::zeros({})};
}

struct RunHistory {
  torch::Tensor totals = torch::zeros({20, 64});
  torch::Tensor spreads = torch::zeros({20, 64});
  torch::Tensor guarded = torch::zeros({20, 64});
  torch::Tensor finals = torch::zeros({1});
  torch::Tensor evals = torch::zeros({64});

  void record(int64_t epoch, int64_t batch, const UpdateLosses &l) {
    totals.index_put_({epoch, batch}, l.total.detach());
    spreads.index_put_({epoch, batch}, l.spread);
  }
  void recordGuarded(int64_t epoch, int64_t batch, const UpdateLosses &l) {
    torch::NoGradGuard no_grad;
    guarded.index_put_({epoch, batch}, l.total);
  }
  void recordFinal(const UpdateLosses &l) { finals.index_put_({0}, l.total); }
  torch::Tensor summary(const UpdateLosses &l) {
    torch::Tensor row = torch::zeros({2});
    row.index_put_({0}, l.total);
    return row.detach();
  }
  void recordEval(int64_t batch, const UpdateLosses &l) { evals.index_put_({batch}, l.total); }
};

int main() {
  Regressor net;
  torch::optim::Adam opt(net.parameters(), 1e-3);
  RunHistory history;
  UpdateLosses last;
  for (int64_t epoch = 0; epoch < 20; ++epoch) {
    for (int64_t batch = 0; batch < 64; ++batch) {
      torch::Tensor x = torch::randn({32, 4}), y = torch::randn({32, 1});
      last = update(net, opt, x, y);
      history.record(epoch, batch, last);
      history.recordGuarded(epoch, batch, last);
      history.summary(last);
    }
  }
  history.recordFinal(last);
  for (int64_t batch = 0; batch < 64; ++batch) {
    torch::Tensor x = torch::randn({32, 4}), y = torch::randn({32, 1});
    history.recordEval(batch, measure(net, x, y));
  }
}

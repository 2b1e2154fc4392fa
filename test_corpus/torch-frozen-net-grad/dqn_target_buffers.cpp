// torch-frozen-net-grad: a DQN target network refreshed by name (named_parameters() and
// named_buffers() looked up with find()) under GradMode off, inside learn(), which takes the
// optimizer by reference. Its buffers going into a copy loop hand no parameter to any optimizer.
#include <torch/torch.h>

struct QNetImpl : torch::nn::Module {
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  QNetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(8, 64));
    bn = register_module("bn", torch::nn::BatchNorm1d(64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 4));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(bn(fc1(x)))); }
};
TORCH_MODULE(QNet);

struct Learner {
  QNet online{nullptr}, target{nullptr};
  int learned = 0;
  Learner() {
    online = QNet();
    target = QNet();
  }

  void learn(torch::optim::Optimizer &opt, const torch::Tensor &s, const torch::Tensor &a, const torch::Tensor &r,
             const torch::Tensor &s2) {
    if (learned % 100 == 0) {
      torch::autograd::GradMode::set_enabled(false);
      auto src = online->named_parameters(true);
      auto dst = target->named_parameters(true);
      for (auto &kv : src)
        if (auto *t = dst.find(kv.key()))
          t->copy_(kv.value());
      auto src_buffers = online->named_buffers(true);
      auto dst_buffers = target->named_buffers(true);
      for (auto &kv : src_buffers)
        if (auto *t = dst_buffers.find(kv.key()))
          t->copy_(kv.value());
      torch::autograd::GradMode::set_enabled(true);
    }
    ++learned;
    auto q = online->forward(s).gather(1, a);
    auto q_next = target->forward(s2).detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'target' is a network whose parameters are in no optimizer, run in the training step with autograd on: its output is detached, so backward() never reaches it [torch-frozen-net-grad]
    auto loss = torch::mse_loss(q, r + 0.9 * std::get<0>(q_next.max(1, true)));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
};

int main() {
  Learner learner;
  torch::optim::Adam opt(learner.online->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 1000; ++step)
    learner.learn(opt, torch::randn({32, 8}), torch::randint(0, 4, {32, 1}), torch::randn({32, 1}),
                  torch::randn({32, 8}));
  return 0;
}

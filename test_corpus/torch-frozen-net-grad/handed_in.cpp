// torch-frozen-net-grad in a trainer that is handed its network and optimizer (rl-cpp's DQN, PPO
// and SAC trainers): the network handed in is trained by the optimizer handed in with it (both
// built by the caller), so it is not reported; the target network the trainer clones from it is
// its own copy, whose parameters no optimizer holds: reported. (Negatives: handed_in_ok.cpp.)
#include <torch/torch.h>
#include <memory>

struct QNetImpl : torch::nn::Module {
  explicit QNetImpl(int64_t width) : body(register_module("body", torch::nn::Linear(width, 3))) {}
  torch::Tensor forward(const torch::Tensor &x) { return body->forward(x); }
  torch::nn::Linear body;
};

class TDTrainer {
 public:
  TDTrainer(std::shared_ptr<QNetImpl> online, std::shared_ptr<torch::optim::Optimizer> optimizer)
      : online_(online), target_(std::dynamic_pointer_cast<QNetImpl>(online->clone())), optimizer_(optimizer) {}

  void update(const torch::Tensor &s, const torch::Tensor &a, const torch::Tensor &r, const torch::Tensor &s2) {
    torch::Tensor q = online_->forward(s).gather(1, a.unsqueeze(1)).squeeze(1);
    torch::Tensor bootstrap = target_->forward(s2).detach().amax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'target_' is a network whose parameters are in no optimizer, run in the training step with autograd on: its output is detached, so backward() never reaches it, but its parameters require gradients, so autograd records its graph and saves its activations in forward for nothing; run it under torch::NoGradGuard (nothing recorded; the .detach() is then unneeded), or set requires_grad_(false) on its parameters once (`for (auto& p : target_->parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
    torch::Tensor loss = torch::smooth_l1_loss(q, r + 0.97 * bootstrap);
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
  }

 private:
  std::shared_ptr<QNetImpl> online_;
  std::shared_ptr<QNetImpl> target_;
  std::shared_ptr<torch::optim::Optimizer> optimizer_;
};

int main() {
  auto online = std::make_shared<QNetImpl>(6);
  auto optimizer = std::make_shared<torch::optim::RMSprop>(online->parameters(), torch::optim::RMSpropOptions(1e-3));
  TDTrainer trainer(online, optimizer);
  for (int step = 0; step < 5000; ++step)
    trainer.update(torch::randn({64, 6}), torch::randint(0, 3, {64}), torch::randn({64}), torch::randn({64, 6}));
}

// torch-frozen-net-grad: networks handed to a trainer by its caller, together with the optimizer
// that trains them (a constructor's member initialiser, a setter's assignment, a by-reference
// member), are not "in no optimizer": the caller built the optimizer from their parameters.
// Nothing here is reported. (The trainer's own clone: handed_in.cpp.)
#include <torch/torch.h>
#include <memory>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() : head(register_module("head", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(const torch::Tensor &x) { return torch::log_softmax(head->forward(x), 1); }
  torch::nn::Linear head;
};
TORCH_MODULE(Policy);

// Handed in through the constructor.
class PolicyGradient {
 public:
  PolicyGradient(Policy policy, std::shared_ptr<torch::optim::Optimizer> optimizer)
      : policy_{policy}, optimizer_{std::move(optimizer)} {}
  void update(const torch::Tensor &obs, const torch::Tensor &actions, const torch::Tensor &returns) {
    torch::Tensor logp = policy_->forward(obs).gather(1, actions.unsqueeze(1)).squeeze(1);
    torch::Tensor loss = -(logp * returns).mean();
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
  }

 private:
  Policy policy_{nullptr};
  std::shared_ptr<torch::optim::Optimizer> optimizer_;
};

// Handed in through a setter.
class Distiller {
 public:
  void attach(std::shared_ptr<PolicyImpl> student, torch::optim::Optimizer *optimizer) {
    student_ = student;
    optimizer_ = optimizer;
  }
  void step(const torch::Tensor &obs, const torch::Tensor &teacher_logp) {
    torch::Tensor loss = torch::kl_div(student_->forward(obs), teacher_logp, at::Reduction::Mean, true);
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
  }

 private:
  std::shared_ptr<PolicyImpl> student_;
  torch::optim::Optimizer *optimizer_ = nullptr;
};

int main() {
  Policy policy;
  auto adam = std::make_shared<torch::optim::Adam>(policy->parameters(), torch::optim::AdamOptions(3e-4));
  PolicyGradient pg(policy, adam);
  auto student = std::make_shared<PolicyImpl>();
  torch::optim::SGD sgd(student->parameters(), torch::optim::SGDOptions(0.1));
  Distiller distiller;
  distiller.attach(student, &sgd);
  for (int it = 0; it < 1000; ++it) {
    torch::Tensor obs = torch::randn({32, 4});
    pg.update(obs, torch::randint(0, 2, {32}), torch::randn({32}));
    distiller.step(obs, torch::log_softmax(torch::randn({32, 2}), 1));
  }
}

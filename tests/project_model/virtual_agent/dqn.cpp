#include "agent.h"

struct QNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

class DqnAgent : public Agent {
public:
  at::Tensor act(const at::Tensor &state) override { return net_.forward(state); }
  float learn(const at::Tensor &state, const at::Tensor &reward) override {
    opt_->zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(net_.forward(state), reward);
    loss.backward();
    opt_->step();
    return loss.item<float>(); // reached through the virtual Agent::learn in runner.cpp's loop
  }

private:
  QNet net_;
  torch::optim::SGD *opt_;
};

Agent *make_agent() { return new DqnAgent(); }

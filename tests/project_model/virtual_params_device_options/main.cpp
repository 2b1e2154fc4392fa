#include "env.h"
#include "options.h"

struct PolicyNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};
void train(PolicyNet &net, torch::optim::SGD &opt, Env &env, Critic &critic, const TrainerOptions &options);

int main() {
  PolicyNet net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  CartEnv env;
  ValueCritic critic;
  train(net, *opt, env, critic, TrainerOptions{}.env_device_(torch::kCPU).net_device_(torch::kCUDA));
}

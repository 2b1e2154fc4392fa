#include "env.h"
#include "options.h"

struct PolicyNet : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void train(PolicyNet &net, torch::optim::SGD &opt, Env &env, Critic &critic, const TrainerOptions &options) {
  at::Tensor state = torch::zeros({4});
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor out = net.forward(state.to(options.net_device));
    at::Tensor loss = out.sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += env.step(out.to(options.env_device));
    total += critic.score(out.to(options.net_device));
  }
  std::cout << total;
}

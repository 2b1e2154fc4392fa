#include "schedule.h"

struct Config {
  long sample_every = 1000;
};

int main() {
  Config cfg;
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(8, 8);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-4);
  for (long step = 1; step <= 100000; ++step) {
    torch::Tensor x = torch::randn({4, 8}, device);
    torch::Tensor loss = net->forward(x).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % cfg.sample_every == 0) {
      // Sampling, once per interval: the schedule's allocation is not per step.
      torch::NoGradGuard no_grad;
      torch::Tensor sigmas = schedule(20, 0.01, 80.0, device);
      torch::Tensor y = torch::randn({4, 8}, device);
      for (int i = 0; i < 19; ++i)
        y = net->forward(y) * sigmas;
    }
  }
}

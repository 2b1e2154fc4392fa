// torch-alloc-in-forward: a noise schedule built from constants (torch::linspace on the device)
// by a helper that the trainer calls only in its sampling branch, `if (step_ % cfg_.sample_every
// == 0)`: one allocation per sampling interval is nothing to report (a diffusion model's
// trainer). The same helper called on every step is reported: sampling_branch_lookalike.cpp.
#include <torch/torch.h>
#include <vector>

struct Config {
  long sample_every = 1000;
};

torch::Tensor schedule(int n, double lo, double hi, torch::Device device) {
  torch::Tensor ramp = torch::linspace(0.0, 1.0, n, torch::TensorOptions().device(device));
  return torch::pow(hi + ramp * (lo - hi), 7.0);
}

class Trainer {
public:
  void fit(std::vector<torch::Tensor> &batches) {
    torch::optim::Adam opt(net_->parameters(), 1e-4);
    for (auto &batch : batches) {
      torch::Tensor loss = net_->forward(batch.to(device_)).pow(2).mean();
      loss.backward();
      opt.step();
      opt.zero_grad();
      ++step_;
      if (step_ % cfg_.sample_every == 0) {
        torch::NoGradGuard no_grad;
        torch::Tensor sigmas = schedule(20, 0.01, 80.0, device_);
        torch::Tensor x = torch::randn({4, 8}, device_) * 80.0;
        for (int i = 0; i < 19; ++i)
          x = net_->forward(x) * sigmas[i + 1];
      }
    }
  }

private:
  torch::nn::Linear net_{8, 8};
  Config cfg_;
  long step_ = 0;
  torch::Device device_{torch::kCUDA};
};

int main() {
  std::vector<torch::Tensor> batches(10, torch::randn({4, 8}));
  Trainer t;
  t.fit(batches);
}

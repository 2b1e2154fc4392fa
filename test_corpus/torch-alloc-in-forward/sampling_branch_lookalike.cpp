// torch-alloc-in-forward: the look-alike of sampling_branch_ok.cpp where the trainer calls the
// schedule helper on every step (outside the sampling branch): an allocation and a host-to-device
// copy per step for a constant. Reported.
#include <torch/torch.h>
#include <vector>

struct Config {
  long sample_every = 1000;
};

torch::Tensor schedule(int n, double lo, double hi, torch::Device device) {
  torch::Tensor ramp = torch::linspace(0.0, 1.0, n, torch::TensorOptions().device(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: torch::linspace(...) builds a tensor from constant arguments on every call: an allocation and, for a CUDA tensor, a host-to-device copy each time for a value that never changes; create it once (a buffer registered in the module's constructor, moved with the module) or use a scalar overload (in schedule(), called on every iteration of the loop in Trainer::fit() at line 21) [torch-alloc-in-forward]
  return torch::pow(hi + ramp * (lo - hi), 7.0);
}

class Trainer {
public:
  void fit(std::vector<torch::Tensor> &batches) {
    torch::optim::Adam opt(net_->parameters(), 1e-4);
    for (auto &batch : batches) {
      torch::Tensor loss = net_->forward(batch.to(device_)).pow(2).mean();
      torch::Tensor weights = schedule(4, 0.5, 2.0, device_);
      loss = loss * weights.mean();
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

// torch-sync-explicit: look-alikes of a lazy initialisation that run on every call: the flag tested
// is never set (so the branch is taken each time), or the test is of a local. (The real lazy
// initialisation, quiet: lazy_init_ok.cpp.)
#include <torch/torch.h>

class Runner {
 public:
  explicit Runner(torch::nn::Linear layer) : layer_(layer) {}

  torch::Tensor operator()(const torch::Tensor &x) {
    if (!checked_) {
      torch::cuda::synchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: torch::cuda::synchronize() blocks the CPU until the device has finished [torch-sync-explicit]
    }
    bool fresh = x.size(0) > 0;
    if (!fresh) {
      torch::cuda::synchronize();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: torch::cuda::synchronize() blocks the CPU until the device has finished [torch-sync-explicit]
      fresh = true;
    }
    return layer_->forward(x);
  }

 private:
  torch::nn::Linear layer_;
  bool checked_ = false; // never set: the branch runs on every call
};

int main() {
  torch::nn::Linear layer(16, 4);
  layer->to(torch::kCUDA);
  torch::optim::SGD opt(layer->parameters(), torch::optim::SGDOptions(0.1));
  Runner run(layer);
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    torch::Tensor loss = run(torch::randn({8, 16}, torch::kCUDA)).pow(2).mean();
    loss.backward();
    opt.step();
  }
}

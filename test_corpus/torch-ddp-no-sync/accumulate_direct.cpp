// Gradient accumulation over 4 micro-batches with a hand-written data-parallel all-reduce that
// runs after every backward pass instead of once per optimizer step.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const c10::intrusive_ptr<c10d::ProcessGroup> &pg, torch::Device device) {
  const int accumulation_steps = 4;
  for (int i = 0; i < 1000; ++i) {
    auto x = torch::randn({32, 64}, torch::TensorOptions().device(device));
    auto loss = model->forward(x).pow(2).mean() / accumulation_steps;
    loss.backward();
    std::vector<at::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    pg->allreduce_coalesced(grads)->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 3 of every 4 all-reduces are wasted [torch-ddp-no-sync]
    if ((i + 1) % accumulation_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

int main() {
  torch::nn::Linear model(64, 8);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  (void)optimizer;
  return 0;
}

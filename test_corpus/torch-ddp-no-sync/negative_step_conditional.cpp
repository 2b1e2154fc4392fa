// Clean: the all-reduce sits inside the accumulation branch, right before the step; other
// all-reduces in the loop reduce a metric, not gradients; a loop without accumulation all-reduces
// every step as it must.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

void sync_grads(torch::nn::Linear &model, c10d::ProcessGroup &pg) {
  std::vector<at::Tensor> grads;
  for (auto &p : model->parameters())
    grads.push_back(p.grad());
  pg.allreduce_coalesced(grads)->wait();
}

void train(torch::nn::Linear model, torch::optim::SGD &optimizer, c10d::ProcessGroup &pg) {
  const int N = 4;
  for (int i = 0; i < 1000; ++i) {
    auto loss = model->forward(torch::randn({2, 3})).sum() / N;
    loss.backward();
    // A metric all-reduce (not gradients): not what this check is about.
    std::vector<at::Tensor> metric{loss.detach()};
    pg.allreduce(metric);
    if ((i + 1) % N == 0) {
      sync_grads(model, pg);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  // No accumulation: every iteration steps, so every all-reduce is needed.
  for (int i = 0; i < 10; ++i) {
    model->forward(torch::randn({2, 3})).sum().backward();
    sync_grads(model, pg);
    optimizer.step();
  }
}

int main() { return 0; }

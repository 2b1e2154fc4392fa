// A while loop, a bool flag holding the accumulation test, and gradients flattened into one
// tensor before the all-reduce (bucketed, but still once per micro-batch).
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

template <typename Model>
void run(Model &model, torch::optim::SGD &sgd, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
  int it = 0;
  while (it < 500) {
    model->forward(torch::ones({4, 4})).sum().backward();
    std::vector<at::Tensor> flat;
    for (const auto &p : model->parameters())
      flat.push_back(p.grad().flatten());
    std::vector<at::Tensor> bucket{torch::cat(flat)};
    auto work = pg->allreduce(bucket);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 7 of every 8 all-reduces are wasted [torch-ddp-no-sync]
    work->wait();
    const bool do_step = (++it) % 8 == 0;
    if (do_step)
      sgd.step();
  }
}

int main(int argc, char **) {
  torch::nn::Linear lin(4, 4);
  torch::optim::SGD sgd(lin->parameters(), 0.01);
  if (argc > 1) // needs a process group from the launcher
    run(lin, sgd, c10::intrusive_ptr<c10d::ProcessGroup>());
  return 0;
}

// Clean: code that only looks alike. A user type with an allreduce() method (not c10d), an
// evaluation every 10 iterations that does not step the optimizer, and an early `continue`
// that makes the all-reduce run only on stepping iterations.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

struct FakeComm {
  void allreduce(std::vector<at::Tensor> &) {}
};

void evaluate() {}

void train(torch::nn::Linear model, torch::optim::SGD &opt, FakeComm &comm,
           const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  for (int i = 0; i < 100; ++i) {
    model->forward(torch::randn({2, 3})).sum().backward();
    std::vector<at::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    comm.allreduce(grads); // not a c10d collective
    opt.step();
    if ((i + 1) % 10 == 0)
      evaluate(); // not a step
  }
  for (int i = 0; i < 100; ++i) {
    model->forward(torch::randn({2, 3})).sum().backward();
    if ((i + 1) % 4 != 0)
      continue;
    std::vector<at::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    pg->allreduce_coalesced(grads)->wait();
    opt.step();
    opt.zero_grad();
  }
}

int main() { return 0; }

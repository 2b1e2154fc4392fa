// One all-reduce per parameter tensor, in the three shapes hand-written data parallelism takes.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

// c10d::Work is ProcessGroup::Work in libtorch 1.13: name the handle type portably.
using WorkHandle = decltype(std::declval<c10d::ProcessGroup &>().allreduce(std::declval<std::vector<at::Tensor> &>()));

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(32, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 8));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

void average_gradients(Net &net, const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  for (auto &p : net.parameters()) {
    std::vector<at::Tensor> one{p.grad()};
    pg->allreduce(one)->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: and waits for each before issuing the next, so none overlap [torch-allreduce-per-parameter]
  }
}

void average_named(Net &net, c10d::ProcessGroup &pg) {
  auto params = net.named_parameters();
  std::vector<WorkHandle> pending;
  for (auto &item : params) {
    std::vector<at::Tensor> one{item.value().grad()};
    pending.push_back(pg.allreduce_coalesced(one));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: one all-reduce per parameter: this loop over the model's parameters issues a separate collective [torch-allreduce-per-parameter]
  }
  for (auto &w : pending)
    w->wait();
}

void average_indexed(std::shared_ptr<Net> net, c10d::ProcessGroup &pg) {
  auto params = net->parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    std::vector<at::Tensor> one{params[i].grad()};
    auto work = pg.allreduce(one);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: and waits for each before issuing the next [torch-allreduce-per-parameter]
    work->wait();
  }
}

int main() { return 0; }

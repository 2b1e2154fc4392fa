// Clean: bucketed all-reduce. Gradients are flattened into one tensor or passed as one list;
// loops over buckets (not parameters) issue one collective per bucket; a user type's
// allreduce() in a loop over parameters is not c10d.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

struct Logger {
  void allreduce(const at::Tensor &) {}
};

void flat_allreduce(torch::nn::Linear &model, c10d::ProcessGroup &pg) {
  std::vector<at::Tensor> flat;
  for (auto &p : model->parameters())
    flat.push_back(p.grad().flatten());
  std::vector<at::Tensor> bucket{torch::cat(flat)};
  pg.allreduce(bucket)->wait();
}

void coalesced(torch::nn::Linear &model, c10d::ProcessGroup &pg) {
  std::vector<at::Tensor> grads;
  for (auto &p : model->parameters())
    grads.push_back(p.grad());
  pg.allreduce_coalesced(grads)->wait();
}

void per_bucket(std::vector<at::Tensor> &buckets, c10d::ProcessGroup &pg, Logger &log,
                torch::nn::Linear &model) {
  for (auto &b : buckets) {
    std::vector<at::Tensor> one{b};
    pg.allreduce(one);
  }
  for (auto &p : model->parameters())
    log.allreduce(p);
}

int main() { return 0; }

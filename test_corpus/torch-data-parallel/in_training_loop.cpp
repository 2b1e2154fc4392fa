// data_parallel on every step of the training loop, directly and from a helper.
// TORCHLINT-VERSIONS: 2
// (Debian's libtorch-dev 1.13 cannot compile torch/nn/parallel/data_parallel.h: it ships no
// c10/cuda/impl/cuda_cmake_macros.h, so no 1.13 program can call data_parallel.)
#include <torch/torch.h>
#include <torch/nn/parallel/data_parallel.h>

torch::Tensor step_loss(torch::nn::Linear &model, const torch::Tensor &batch) {
  auto out = torch::nn::parallel::data_parallel(model, batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: torch::nn::parallel::data_parallel replicates the module onto every GPU [torch-data-parallel]
  return out.pow(2).mean();
}

int main() {
  torch::nn::Linear model(128, 16);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int i = 0; i < 100; ++i) {
      auto batch = torch::randn({256, 128}, torch::kCUDA);
      auto out = torch::nn::parallel::data_parallel(model, batch);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: one process per GPU and all-reduce the gradients [torch-data-parallel]
      opt.zero_grad();
      out.sum().backward();
      step_loss(model, batch).backward();
      opt.step();
    }
  }
}

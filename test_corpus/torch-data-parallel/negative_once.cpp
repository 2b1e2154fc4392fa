// Clean: data_parallel called once in setup code (a one-off inference pass), and a user
// function that only shares the name.
// With Debian's CPU-only libtorch 1.13, data_parallel.h includes a CUDA header whose configuration
// header is not shipped: the file is analysed without it (before issue 14 it was not analysed at
// all, a fatal error in a libtorch header that no test saw).
// TORCHLINT-MISSING-HEADERS: c10/cuda/impl/cuda_cmake_macros.h@1
#include <torch/torch.h>
#include <torch/nn/parallel/data_parallel.h>

namespace mylib {
torch::Tensor data_parallel(torch::nn::Linear &m, const torch::Tensor &x) { return m->forward(x); }
} // namespace mylib

int main() {
  torch::nn::Linear model(8, 8);
  auto probe = torch::nn::parallel::data_parallel(model, torch::randn({4, 8}));
  (void)probe;
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    auto loss = mylib::data_parallel(model, torch::randn({4, 8})).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

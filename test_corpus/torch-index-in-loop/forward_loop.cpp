// torch-index-in-loop: forward() of a module that gathers embeddings row by row, with a trip count
// that is a large constant and one that is a parameter.
#include <torch/torch.h>

struct PoolImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, int64_t n) {
    auto acc = torch::zeros_like(x[0]);
    for (int64_t k = 0; k < n; ++k)
      acc += x.select(0, k);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: `x.select(...)` indexes one row or element of x per iteration of the loop at line 8 to n [torch-index-in-loop]
    auto out = torch::empty({128}, x.options());
    for (int i = 0; i < 128; ++i)
      out.index_put_({i}, acc.sum() * i);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `out.index_put_(...)` indexes one row or element of out per iteration of the loop at line 12 to 128 [torch-index-in-loop]
    return out;
  }
};
TORCH_MODULE(Pool);

int main() {
  Pool pool;
  auto x = torch::randn({16, 8}, torch::kCUDA);
  auto y = pool->forward(x, x.size(0));
  (void)y;
}

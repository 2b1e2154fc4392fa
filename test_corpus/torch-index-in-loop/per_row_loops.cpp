// torch-index-in-loop: per-row and per-element loops over device tensors in the training step:
// reads with t[i], writes with t[i][j] = v, index({i}), index_put_ and select(0, i).
#include <torch/torch.h>

using torch::indexing::Slice;

torch::Tensor row_norms(const torch::Tensor &x) {
  auto out = torch::empty({x.size(0)}, x.options());
  for (int64_t i = 0; i < x.size(0); ++i)
    out[i] = x[i].norm();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: `out[i]` indexes one row or element of out per iteration of the loop at line 9 over x.size(0) [torch-index-in-loop]
  return out;
}

torch::Tensor scale_columns(torch::Tensor w, const torch::Tensor &scale) {
  const int64_t cols = w.size(1);
  for (int64_t j = 0; j < cols; ++j)
    w.index_put_({Slice(), j}, w.index({Slice(), j}) * scale.select(0, j));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: `w.index_put_(...)` indexes one row or element of w per iteration of the loop at line 17 over cols [torch-index-in-loop]
  return w;
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(64, 64);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto scale = torch::rand({64}, device);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 64}, device);
    auto y = model->forward(x);
    auto norms = row_norms(y);
    auto loss = scale_columns(y, scale).mean() + norms.mean();
    // A per-element write, nested: one finding at the outer loop.
    auto mask = torch::zeros({32, 64}, device);
    for (int64_t i = 0; i < mask.size(0); ++i)
      for (int64_t j = 0; j < mask.size(1); ++j)
        mask[i][j] = (i + j) % 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: `mask[i]` indexes one row or element of mask per iteration of the loop at line 36 over mask.size(0) [torch-index-in-loop]
    loss = loss + (y * mask).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

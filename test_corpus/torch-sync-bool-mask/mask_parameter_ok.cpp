// Look-alikes of a mask parameter: the helpers index with a parameter that some caller fills with
// integer indices, whose function is also used as a callback (its callers are not all seen), or
// that no call in this TU reaches. None is provably a boolean mask.
#include <torch/torch.h>
#include <functional>

torch::Tensor gather_rows(const torch::Tensor &x, const torch::Tensor &idx) { return x.index({idx}); }

torch::Tensor pick(const torch::Tensor &x, const torch::Tensor &m) { return x.index({m}); }

torch::Tensor never_called(const torch::Tensor &x, const torch::Tensor &m) { return x.index({m}); }

torch::Tensor reassigned(torch::Tensor x, torch::Tensor m) {
  m = torch::arange(2, m.options().dtype(torch::kLong));
  return x.index({m});
}

int main() {
  torch::Device device(torch::kCUDA);
  std::function<torch::Tensor(const torch::Tensor &, const torch::Tensor &)> cb = pick;
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 8}, device);
    // One call passes a mask, the other integer indices: not every caller passes a mask.
    auto a = gather_rows(x, x.select(1, 0) > 0);
    auto b = gather_rows(x, torch::randint(0, 32, {4}, x.options().dtype(torch::kLong)));
    auto c = pick(x, x.select(1, 0) > 0) + cb(x, torch::arange(4, x.options().dtype(torch::kLong))).sum();
    auto d = reassigned(x, x > 0);
    total += a.numel() + b.numel() + c.numel() + d.numel();
  }
  return total > 0;
}

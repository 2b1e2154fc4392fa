// Looks alike, but no boolean-mask sync: integer index tensors (whatever they are called), CPU
// tensors, fixed-shape alternatives, slices, and setup code.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  auto x = torch::randn({16, 8}, device);
  // Setup: runs once.
  auto warm = x.index({x > 0});
  auto cpu_x = torch::randn({16, 8});
  for (int step = 0; step < 10; ++step) {
    auto scores = torch::randn({16}, device);
    // Holds indices (int64), not booleans: the name does not matter.
    auto order_mask = torch::argsort(scores);
    auto sorted = x.index({order_mask});
    auto firsts = x.index({torch::indexing::Slice(0, 4), 1});
    // CPU tensors: no device to wait for.
    auto host = cpu_x.index({cpu_x > 0});
    cpu_x.index_put_({cpu_x < 0}, 0);
    // Fixed-shape alternatives.
    auto clipped = x.masked_fill(x < 0, 0);
    auto kept = torch::where(x > 0, x, torch::zeros_like(x));
    auto weighted = x * (x > 0);
    // A float tensor used as an index list element is not a mask either.
    auto as_float = (x > 0).to(torch::kFloat);
    (void)sorted; (void)firsts; (void)host; (void)clipped; (void)kept; (void)weighted; (void)as_float;
  }
  (void)warm;
}

// Boolean-mask indexing in the step. The mask is recognised from its dataflow (comparisons,
// logical ops, .to(kBool), kBool factories), whatever it is called.
#include <torch/torch.h>

torch::Tensor masked_targets(torch::Tensor target, int64_t ignore) {
  auto keep = target != ignore;
  return target.index({keep});
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
}

int main() {
  torch::Device device(torch::kCUDA);
  for (int step = 0; step < 10; ++step) {
    auto x = torch::randn({16, 8}, device);
    auto scores = torch::randn({16}, device);
    auto t = masked_targets(torch::randint(0, 4, {16}, device), 3);
    // Fixable: a scalar value and a mask computed elementwise from x itself.
    x.index_put_({x < 0}, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: index_put_ with a boolean mask runs nonzero() [torch-sync-bool-mask]
    // CHECK-FIXES: x.masked_fill_(x < 0, 0);
    auto bad = x.isnan() | x.isinf();
    x.index_put_({bad}, 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: index_put_ with a boolean mask runs nonzero() [torch-sync-bool-mask]
    // CHECK-FIXES: x.masked_fill_(bad, 0.5);
    // Not fixable: the mask has scores' shape, not x's (it selects rows of x).
    auto rows = scores > 0.5;
    x.index_put_({rows}, 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: masked_fill_(mask, value) does the same without a sync [torch-sync-bool-mask]
    // Not fixable: a tensor value.
    x.index_put_({x > 1}, torch::ones({1}, device));
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: torch::where(mask, values, t) [torch-sync-bool-mask]
    // A mask made by .to(kBool) and by a kBool factory, used with other indices.
    auto sel = scores.gt(0).to(torch::kBool);
    auto top = x.index({sel, torch::indexing::Slice()});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
    auto chosen = torch::zeros({16}, torch::TensorOptions().dtype(torch::kBool).device(device));
    auto picked = scores.index({chosen});
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: indexing with a boolean mask runs nonzero() [torch-sync-bool-mask]
    auto sel2 = torch::masked_select(x, x > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: masked_select() returns as many elements as the mask selects [torch-sync-bool-mask]
    (void)t; (void)top; (void)picked; (void)sel2;
  }
}

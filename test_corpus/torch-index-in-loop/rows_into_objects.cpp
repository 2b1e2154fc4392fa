// torch-index-in-loop: the look-alike of rows_into_objects_ok.cpp that is vectorisable: each row
// is computed on in the loop (one small kernel per row) before it goes into a standard container.
#include <torch/torch.h>
#include <utility>
#include <vector>

std::vector<std::pair<int64_t, torch::Tensor>> scaled(const torch::Tensor &states, int64_t n) {
  std::vector<std::pair<int64_t, torch::Tensor>> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(std::make_pair(i, states.index({i}) * 2));
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: `states.index(...)` indexes one row or element of states per iteration of the loop at line 9 to n: each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one expression on the whole dimension runs one kernel; vectorise it (slices with torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the dimension, broadcasting) (in scaled(), called on every iteration of the loop in main() at line 19) [torch-index-in-loop]
  return out;
}

int main() {
  torch::nn::Linear policy(8, 4);
  policy->to(torch::kCUDA);
  torch::optim::SGD opt(policy->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 100; ++step) {
    torch::Tensor states = torch::randn({64, 8}, torch::kCUDA);
    auto rows = scaled(states, 64);
    torch::Tensor loss = policy->forward(states).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

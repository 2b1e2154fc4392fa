// torch-index-in-loop over a range-for (an RL rollout's bookkeeping): the element is the index, or
// a record whose integer field is (each environment's step result names its environment). Every
// iteration writes one element of a device tensor: one launch each, where one index_put_ with an
// index tensor (or index_fill_) writes them all. (Look-alikes that stay quiet:
// range_for_elements_ok.cpp.)
#include <torch/torch.h>
#include <vector>

struct StepResult {
  int64_t env;
  float reward;
  bool done;
};

std::vector<StepResult> step_envs(const torch::Tensor &actions);

int main() {
  torch::Device device(torch::kCUDA);
  const int64_t num_envs = 4096;
  torch::Tensor rewards = torch::zeros({num_envs}, device);
  torch::Tensor dones = torch::zeros({num_envs}, torch::TensorOptions().dtype(torch::kBool).device(device));
  torch::Tensor actions = torch::zeros({num_envs}, torch::TensorOptions().dtype(torch::kLong).device(device));
  std::vector<int64_t> restarted;
  for (int step = 0; step < 100000; ++step) {
    std::vector<StepResult> results = step_envs(actions.cpu());
    for (const StepResult &r : results) {
      rewards[r.env] = r.reward;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `rewards[r.env]` indexes one row or element of rewards per iteration of the loop at line 26 over the elements of results: each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one expression on the whole dimension runs one kernel; vectorise it (slices with torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the dimension, broadcasting) [torch-index-in-loop]
      dones[r.env] = r.done;
    }
    // The element's index through a local, as rollouts often name it.
    for (const StepResult &r : results) {
      const int64_t env = r.env;
      if (r.done)
        dones[env] = false;
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: `dones[env]` indexes one row or element of dones per iteration of the loop at line 32 over the elements of results: each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one expression on the whole dimension runs one kernel; vectorise it (slices with torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the dimension, broadcasting) [torch-index-in-loop]
    }
    for (int64_t k : restarted)
      actions[k] = 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `actions[k]` indexes one row or element of actions per iteration of the loop at line 38 over the elements of restarted: each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one expression on the whole dimension runs one kernel; vectorise it (slices with torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the dimension, broadcasting) [torch-index-in-loop]
    // c10::irange(n) is a counter loop written as a range.
    for (const auto e : c10::irange(num_envs))
      rewards[e] = 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `rewards[e]` indexes one row or element of rewards per iteration of the loop at line 42 over the elements of c10::irange(num_envs): each iteration dispatches its own indexing and kernels (one launch each on a GPU), where one expression on the whole dimension runs one kernel; vectorise it (slices with torch::indexing::Slice, index_select/index_put_ with an index tensor, a reduction over the dimension, broadcasting) [torch-index-in-loop]
  }
}

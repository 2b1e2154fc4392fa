// unique and its variants in the step.
#include <torch/torch.h>

bool too_few_classes(const torch::Tensor &target) {
  auto classes = std::get<0>(at::_unique(target));
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: _unique() returns a tensor whose size depends on the data [torch-sync-unique]
  return classes.numel() < 2;
}

int main() {
  torch::Device device(torch::kCUDA);
  for (int step = 0; step < 10; ++step) {
    auto target = torch::randint(0, 4, {64}, torch::TensorOptions().device(device).dtype(torch::kLong));
    bool skip = too_few_classes(target);
    auto runs = torch::unique_consecutive(target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: unique_consecutive() returns [torch-sync-unique]
    auto rows = torch::unique_dim(target.view({8, 8}), 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: unique_dim() returns [torch-sync-unique]
    auto u2 = at::_unique2(target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: sort the flattened tensor and count the steps on the device [torch-sync-unique]
    (void)skip; (void)runs; (void)rows; (void)u2;
  }
}

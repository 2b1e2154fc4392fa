// torch-discarded-conversion: the look-alikes of same_dtype_ok.cpp, where the discarded to()
// asks for another dtype than the tensor has (a floating fill value makes a float tensor) or the
// dtype is not known (a parameter): the conversion is lost. Reported.
#include <torch/torch.h>

struct Sample {
  torch::Tensor image, label;
};

Sample make(double score, torch::Tensor given) {
  torch::Tensor label = torch::full({1}, score);
  label.to(torch::kInt64);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: Tensor::to() returns the converted tensor and leaves 'label' as it was [torch-discarded-conversion]
  given.to(torch::kInt64);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: Tensor::to() returns the converted tensor and leaves 'given' as it was [torch-discarded-conversion]
  return {torch::rand({3, 8, 8}), label};
}

// <accel_user/metrics.h> is found through -I: a project header, so the PCH stops before it.
#include <torch/torch.h>
#include <accel_user/metrics.h>

int main() {
  std::vector<torch::Tensor> xs{torch::ones({2}, torch::kCUDA), torch::zeros({2}, torch::kCUDA)};
  float m = 0;
  while (m < 10)
    m += meanOf(xs) + xs[0].sum().item<float>();
  return m > 0;
}

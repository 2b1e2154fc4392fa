#include <torch/torch.h>
int main() {
  auto t = torch::zeros({3}, torch::TensorOptions().device(torch::kCPU));
  double s = 0;
  for (int i = 0; i < 3; ++i) s += t.sum().item<double>();
  auto x = torch::tensor({1.0, 2.0}).to(torch::kFloat);
  auto y = torch::ones({2}).cpu();
  struct NotTensor { int item() { return 1; } NotTensor cuda() { return *this; } } n;
  for (int i = 0; i < 3; ++i) s += n.item() + n.cuda().item();
  return (int)s;
}

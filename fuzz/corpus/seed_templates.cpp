#include <torch/torch.h>
#include <vector>
template <class T> T read(const torch::Tensor &t) { return t.template item<T>(); }
template <class T> struct Acc { T sum{}; void add(const torch::Tensor &t) { sum += t.template item<T>(); } };
#define MOVE(x) (x).cuda()
int main() {
  Acc<float> acc;
  torch::Device d("cuda:0");
  for (auto i = 0; i < 100; i++) {
    acc.add(torch::ones({2}));
    float v = read<float>(torch::randn({3}, torch::kFloat).to(d));
    auto t = MOVE(torch::zeros({1}));
    auto u = at::rand({2, 2}).to(torch::kCUDA);
    auto w = torch::full({2}, 1.0).to(d, torch::kHalf);
    auto c = torch::zeros({2}).cuda(true);
    [&] { return t.item().toFloat(); }();
  }
  while (true) { if (torch::ones({1}).item<bool>()) break; }
  do { auto z = torch::empty({4}).to(torch::Device(torch::kCUDA, 1)); } while (false);
}

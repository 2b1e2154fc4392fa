#include <torch/torch.h>
struct Net : torch::nn::Module { torch::Tensor forward(torch::Tensor x) { return x.item<float>() > 0 ? x : x; } };
void helper(torch::Tensor t) { float f = t.item<float>(); (void)f; }
int main() {
  torch::Device dev(torch::kCUDA);
  Net net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  torch::Tensor total = torch::zeros({1});
  for (int i = 0; i < 10; ++i) {
    auto x = torch::rand({4, 4}).cuda();
    auto y = torch::zeros({4}).to(dev);
    auto loss = net.forward(x).sum();
    helper(loss);
    double v = loss.item().toDouble();
    opt.zero_grad(); loss.backward(); opt.step();
  }
}

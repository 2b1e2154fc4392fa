#include "support.h"

int main(int argc, char **) {
  at::Device device(at::kCUDA);
  at::Tensor weights = torch::zeros({2}, at::TensorOptions(device));
  torch::optim::SGD opt(std::vector<at::Tensor>{weights}, torch::optim::SGDOptions(0.1));
  float rate = argc > 1 ? 0.5f : 0.25f;
  for (int step = 0; step < 1000; ++step) {
    at::Tensor x = torch::rand({2}, at::TensorOptions(device));
    auto value = std::make_shared<ValueSupport>(x * weights, 0.0f, 1.0f);
    Scaled first(x, 2.0f);
    Scaled second(x, rate);
    opt.zero_grad();
    at::Tensor loss = (value->atoms * first.factor * second.factor * weights).sum();
    loss.backward();
    opt.step();
  }
}

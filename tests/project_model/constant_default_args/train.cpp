#include "loss.h"

int main(int argc, char **) {
  at::Device device(at::kCUDA);
  at::Tensor weights = torch::zeros({11}, at::TensorOptions(device));
  torch::optim::SGD opt(std::vector<at::Tensor>{weights}, torch::optim::SGDOptions(0.1));
  int width = argc > 1 ? 7 : 3;
  for (int step = 0; step < 1000; ++step) {
    at::Tensor x = torch::rand({11}, at::TensorOptions(device));
    at::Tensor target = torch::rand({11}, at::TensorOptions(device));
    opt.zero_grad();
    at::Tensor loss = photo::similarity(x * weights, target) + photo::blur(x * weights) + photo::blur(x, width);
    loss.backward();
    opt.step();
  }
}

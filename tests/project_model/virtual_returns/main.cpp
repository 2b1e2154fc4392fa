#include "dist.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};
void train(Net &net, torch::optim::SGD &opt, int kind);

int main() {
  Net net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  train(net, *opt, 1);
}

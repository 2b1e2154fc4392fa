#include "env.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};
void train(Net &net, torch::optim::SGD &opt, Simulator &sim);

int main() {
  Net net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  LineSim sim;
  train(net, *opt, sim);
}

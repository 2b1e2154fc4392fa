#include "bounds.h"

void b_train(Net &net, torch::optim::SGD &opt);

int main() {
  Net net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  b_train(net, *opt);
}

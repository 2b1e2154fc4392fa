#include "bounds.h"

void a_train(Net &net, torch::optim::SGD &opt);

int main() {
  Net net;
  net.to(torch::kCUDA);
  torch::optim::SGD *opt = nullptr;
  a_train(net, *opt);
}

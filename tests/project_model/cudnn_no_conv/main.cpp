#include "model.h"

int main() {
  at::Device device(at::kCUDA);
  Mlp net;
  net.to(device);
  train(net, device, 1000);
}

#include "trainer.h"

int main() {
  QNet net;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  c10::DeviceType device = torch::kCPU; // a CPU-only program: float64 there is no GPU concern
  Trainer trainer(&net, &opt, device);
  for (int step = 0; step < 1000; ++step)
    trainer.train_step(32);
}

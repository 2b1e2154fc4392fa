#include "model.h"

// A second program in the same database: it builds the network on the CPU and trains nothing
// itself. It shares model.cpp and trainer.cpp (files without main()) with the trainer, but not
// main.cpp's CUDA device: not reported.
int main() {
  Net net;
  at::Tensor probe = net.forward(torch::rand({1, 3, 32, 32}));
  return probe.dim() == 4 ? 0 : 1;
}

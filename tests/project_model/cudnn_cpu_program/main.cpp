#include "model.h"

// The same convolutional network and trainer as cudnn_across_files, run on the CPU: no program
// of the database uses CUDA, so cuDNN's auto-tuner is no advice.
int main() {
  at::Device device(at::kCPU);
  Net net;
  train(net, device, 1000);
}

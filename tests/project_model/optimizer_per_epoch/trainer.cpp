#include "net.h"

// Rebuilds its optimizer every epoch to lower the learning rate: Adam's moments restart each epoch.
// fit() runs once (from main() in another file), so nothing here is hot per step; the finding
// rests on the epoch loop, not on the project's step.
void fit(Net &net, int epochs) {
  double lr = 1e-3;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    if (epoch == 10)
      lr /= 10;
    torch::optim::Adam opt(net.parameters(), lr);
    for (int step = 0; step < 100; ++step) {
      at::Tensor x = torch::randn({8, 4}, at::TensorOptions(at::kCUDA));
      opt.zero_grad();
      net.forward(x).sum().backward();
      opt.step();
    }
  }
}

// A new model per trial, with its own optimizer: not a restart of one training.
void search(int trials) {
  for (int trial = 0; trial < trials; ++trial) {
    Net candidate;
    torch::optim::Adam opt(candidate.parameters(), 1e-3);
    for (int step = 0; step < 100; ++step) {
      at::Tensor x = torch::randn({8, 4}, at::TensorOptions(at::kCUDA));
      opt.zero_grad();
      candidate.forward(x).sum().backward();
      opt.step();
    }
  }
}

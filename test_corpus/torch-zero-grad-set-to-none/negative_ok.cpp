// torch-zero-grad-set-to-none: negatives on both versions. Gradients reset explicitly, zero_grad
// in setup code that runs once, a run-time choice, and a user class that only looks alike.
#include <torch/torch.h>

struct Accumulator {
  void zero_grad() { total = 0; }
  double total = 0;
};

int main(int argc, char **) {
  torch::nn::Linear model(8, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  opt.zero_grad();    // setup: runs once
  model->zero_grad(); // setup: runs once
  bool none = argc > 1;
  Accumulator acc;
  for (int step = 0; step < 100; ++step) {
    model->zero_grad(true);
    model->zero_grad(none); // decided at run time
    auto loss = model(torch::randn({4, 8})).sum();
    loss.backward();
    opt.step();
    acc.zero_grad();
  }
  return 0;
}

#include "report.h"
#include "torch_mini.h"

struct Head : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void tune(Head &head, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y) {
  for (int step = 0; step < 500; ++step) {
    opt.zero_grad();
    at::Tensor loss = torch::nn::functional::mse_loss(head.forward(x), y);
    loss.backward();
    opt.step();
    report(loss); // on every step
  }
}

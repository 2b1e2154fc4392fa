// torch-eval-no-grad's after-training shape in a file with a compiler error in the function that
// trains and evaluates (issue 25): code with errors there may hold a guard, or train again, that
// torchlint cannot see; nothing is reported. (Errors in other functions do not matter:
// error_elsewhere.cpp.)
// (Synthesised declarations are off here, so that the call stays a compiler error.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: tracker/tracker.h
#include <torch/torch.h>
#include "tracker/tracker.h"
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(8, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto model = std::make_shared<Net>();
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto x = torch::randn({16, 8}), y = torch::randn({16, 1});
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
  }
  auto val = model->forward(x);
  tracker::Run::current().log("validation", torch::mse_loss(val, y).item<float>()); // a compiler error
  std::cout << "validation loss: " << torch::mse_loss(val, y).item<float>() << "\n";
}

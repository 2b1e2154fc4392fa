// torch-eval-no-grad, negative (issue 24): after the test pass, main() hands the model to a
// function of a library that is not installed (typed through synthesised declarations). That
// function may train the model again (a fine-tuning helper, a trainer from the same library), so
// the test pass is not known to be the end of training: nothing is reported. The same code with
// only plotting calls after the test is reported (after_training_plotting_library.cpp).
// TORCHLINT-MISSING-HEADERS: tunekit/tunekit.h
#include <torch/torch.h>
#include "tunekit/tunekit.h"

struct Regressor : torch::nn::Module {
  Regressor() { fc = register_module("fc", torch::nn::Linear(16, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = std::make_shared<Regressor>();
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.01));
  torch::Tensor x = torch::randn({256, 16}).to(device), y = torch::randn({256, 1}).to(device);
  torch::Tensor output, loss;
  for (int epoch = 0; epoch < 50; ++epoch) {
    output = net->forward(x);
    loss = torch::mse_loss(output, y);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  output = net->forward(x);
  double test_loss = torch::mse_loss(output, y).item<double>();
  tunekit::refine(net, x, y, test_loss);
  return 0;
}

// torch-eval-no-grad's after-training shape in a function whose other code is typed through
// synthesised declarations (issue 24): main() trains, tests the model after the epoch loop, then
// plots the losses with a library that is not installed. The plotting calls are typed and judged
// (they are not compiler errors that could hide a backward()), and the model is not handed to
// them: the test pass is reported. (When the model is given to the unknown library, it might
// train it again: after_training_model_to_library_ok.cpp.)
// TORCHLINT-MISSING-HEADERS: plotkit/plotkit.h
#include <torch/torch.h>
#include "plotkit/plotkit.h"
#include <vector>

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(32, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = std::make_shared<Classifier>();
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(1e-3));
  torch::Tensor inputs = torch::randn({512, 32}), targets = torch::randint(10, {512});
  torch::Tensor output, loss;
  std::vector<double> epochs, losses;
  for (int epoch = 0; epoch < 20; ++epoch) {
    net->train();
    for (int64_t i = 0; i < 512; i += 64) {
      output = net->forward(inputs.slice(0, i, i + 64).to(device));
      loss = torch::nll_loss(torch::log_softmax(output, 1), targets.slice(0, i, i + 64).to(device));
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
    epochs.push_back(epoch);
    losses.push_back(loss.item<double>());
  }
  net->eval();
  double correct = 0;
  for (int64_t i = 0; i < 512; i += 64) {
    output = net->forward(inputs.slice(0, i, i + 64).to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model trained by the loop at line 26 runs forward() again after training with gradient recording on [torch-eval-no-grad]
    loss = torch::nll_loss(torch::log_softmax(output, 1), targets.slice(0, i, i + 64).to(device));
    correct += output.argmax(1).eq(targets.slice(0, i, i + 64).to(device)).sum().item<double>();
  }
  auto fig = plotkit::figure(true);
  fig->size(800, 600);
  plotkit::plot(epochs, losses, "b-")->line_width(2);
  plotkit::xlabel("epoch");
  plotkit::show();
  return correct > 0 ? 0 : 1;
}

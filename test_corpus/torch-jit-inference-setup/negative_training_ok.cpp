// Clean: a program that fine-tunes a loaded TorchScript module (gradients are needed, training
// mode is wanted), and a user class that only shares the method names.
#include <torch/torch.h>
#include <torch/script.h>
#include <vector>

struct Module {
  torch::Tensor forward(const torch::Tensor &x) { return x; }
};

int main() {
  torch::jit::Module module = torch::jit::load("backbone.pt");
  module.train();
  std::vector<torch::Tensor> params;
  for (const auto &p : module.parameters())
    params.push_back(p);
  torch::optim::SGD opt(params, 0.01);
  Module look_alike;
  for (int step = 0; step < 100; ++step) {
    std::vector<torch::jit::IValue> in{torch::randn({8, 16})};
    auto loss = module.forward(in).toTensor().sum() + look_alike.forward(torch::ones({1})).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// torch-frozen-net-grad look-alike: a network passed to the training function whose parameters
// the caller hands to the optimizer (fine-tuning the whole model): it is trained, not frozen.
#include <torch/torch.h>

static void train(torch::nn::Sequential net, torch::optim::Optimizer &opt) {
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(torch::randn({8, 16})).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::nn::Sequential net(torch::nn::Linear(16, 16), torch::nn::ReLU(), torch::nn::Linear(16, 2));
  torch::load(net, "pretrained.pt");
  torch::optim::SGD opt(net->parameters(), 0.01);
  train(net, opt);
  return 0;
}

// torch-frozen-net-grad: the pretrained network is a parameter of the training function, as in
// transfer learning where a loaded backbone feeds a new last layer, the only one trained. The
// argument at every call is followed: its parameters go nowhere.
#include <torch/torch.h>

static void train(torch::nn::Sequential backbone, torch::nn::Linear head, torch::optim::Optimizer &opt) {
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({8, 16});
    auto features = backbone->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'backbone' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; its input needs no gradient, so run it under torch::NoGradGuard (nothing recorded), or set requires_grad_(false) on its parameters once (`for (auto& p : backbone->parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
    auto loss = head->forward(features).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::nn::Sequential backbone(torch::nn::Linear(16, 16), torch::nn::ReLU());
  torch::load(backbone, "backbone.pt");
  torch::nn::Linear head(16, 2);
  torch::optim::Adam opt(head->parameters());
  train(backbone, head, opt);
  return 0;
}

// torch-frozen-net-grad: style transfer optimises the input image through a pretrained network
// whose parameters are in no optimizer. Gradients must flow THROUGH the network to the image, so
// NoGradGuard would be wrong; the message says so and advises requires_grad_(false) on its
// parameters. Also a perceptual loss: a frozen network run on a generator's output (gradients flow
// through it to the generator).
#include <torch/torch.h>

struct Features : torch::nn::Module {
  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  Features() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 16, 3).padding(1)));
  }
  torch::Tensor forward(torch::Tensor x) { return c2(torch::relu(c1(x))); }
};

torch::Tensor gram(const torch::Tensor &f) {
  auto m = f.flatten(2);
  return torch::bmm(m, m.transpose(1, 2));
}

int main() {
  torch::Device device(torch::kCUDA);
  auto vgg = std::make_shared<Features>();
  vgg->to(device);
  auto content = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto style = torch::rand({1, 3, 64, 64}, torch::TensorOptions().device(device));
  auto image = content.clone().requires_grad_(true);
  torch::optim::Adam opt({image}, torch::optim::AdamOptions(0.01));
  auto content_f = vgg->forward(content).detach();
  auto style_g = gram(vgg->forward(style)).detach();
  for (int step = 0; step < 300; ++step) {
    auto f = vgg->forward(image);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'vgg' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; gradients must flow through it to its input, so torch::NoGradGuard would be wrong here: set requires_grad_(false) on its parameters once (`for (auto& p : vgg->parameters()) p.requires_grad_(false);`), which keeps the gradient to its input [torch-frozen-net-grad]
    auto loss = torch::mse_loss(f, content_f) + torch::mse_loss(gram(f), style_g);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }

  // A generator trained with a perceptual loss computed by a second frozen network.
  torch::nn::Sequential gen(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 3).padding(1)));
  gen->to(device);
  Features perceptual;
  perceptual.to(device);
  torch::optim::Adam gopt(gen->parameters(), torch::optim::AdamOptions(1e-4));
  for (int step = 0; step < 300; ++step) {
    auto out = gen->forward(content);
    auto loss = torch::mse_loss(perceptual.forward(out), perceptual.forward(style).detach());
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'perceptual' is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; gradients must flow through it to its input, so torch::NoGradGuard would be wrong here: set requires_grad_(false) on its parameters once (`for (auto& p : perceptual.parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
    gopt.zero_grad();
    loss.backward();
    gopt.step();
  }
  return 0;
}

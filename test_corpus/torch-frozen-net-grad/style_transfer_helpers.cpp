// torch-frozen-net-grad: the frozen network reaches the step through helpers that take it as a
// parameter. main() builds `extractor` (pretrained, in no optimizer), hands it to
// content_targets() before the loop (which hands it on to features()) and to features() inside
// the loop, where it runs with autograd on: reported at the forward call in features(), naming
// main()'s network.
#include <torch/torch.h>
#include <utility>
#include <vector>

struct ExtractorImpl : torch::nn::Module {
  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  ExtractorImpl() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 8, 3).padding(1)));
  }
  std::vector<torch::Tensor> forward(torch::Tensor x) {
    auto a = torch::relu(c1(x));
    return {a, c2(a)};
  }
};
TORCH_MODULE(Extractor);

std::vector<torch::Tensor> features(Extractor &net, const torch::Tensor &x) {
  return net->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'extractor' (the parameter 'net' here) is a network whose parameters are in no optimizer, run in the training step with autograd on: its parameters require gradients, so autograd records its graph and backward() computes and accumulates a gradient for each of them that nothing uses; set requires_grad_(false) on its parameters once (`for (auto& p : extractor->parameters()) p.requires_grad_(false);`) [torch-frozen-net-grad]
}

std::vector<torch::Tensor> content_targets(Extractor &net, const torch::Tensor &img) {
  auto f = features(net, img);
  for (auto &t : f)
    t = t.detach();
  return f;
}

int main() {
  torch::Device device(torch::kCUDA);
  Extractor extractor;
  torch::load(extractor, "extractor.pt");
  extractor->to(device);
  auto content = torch::rand({1, 3, 32, 32}, torch::TensorOptions().device(device));
  auto targets = content_targets(extractor, content);
  auto image = content.clone().requires_grad_(true);
  torch::optim::Adam opt({image}, torch::optim::AdamOptions(0.05));
  for (int step = 0; step < 200; ++step) {
    auto f = features(extractor, image);
    auto loss = torch::mse_loss(f[0], targets[0]) + torch::mse_loss(f[1], targets[1]);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

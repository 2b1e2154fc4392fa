// Loops over bounded collections that run once: saving each parameter after training, and a
// demo over a few literal temperatures. Neither is a training step.
#include <torch/torch.h>
#include <fstream>
#include <iostream>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(8, 4);
  net->to(device);
  std::ofstream out("weights.txt");
  for (const auto &p : net->named_parameters())
    out << p.key() << " " << p.value().sum().item<float>() << "\n";
  auto logits = torch::randn({4}, device);
  for (double t : {0.5, 1.0, 2.0})
    std::cout << t << " " << torch::softmax(logits / t, 0).max().item<float>() << "\n";
  return 0;
}

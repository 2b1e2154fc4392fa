#include "dist.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

void train(Net &net, torch::optim::SGD &opt, int kind) {
  Noise noise;                      // a local object: noise.sample() is Noise::sample()
  Dist *dist = make_dist(kind);     // every override of Dist::sample() returns host tensors
  Source *source = make_source(kind); // one override of Source::draw() returns a device tensor
  float total = 0;
  for (int t = 0; t < 1000; ++t) {
    at::Tensor loss = net.forward(torch::randn({8}, at::TensorOptions(at::kCUDA))).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += noise.sample().item<float>();  // quiet
    total += dist->sample().item<float>();  // quiet
    total += source->draw().item<float>();  // a sync per step when the source is the GPU one
  }
  std::cout << total;
}

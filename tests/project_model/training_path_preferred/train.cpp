#include "masks.h"

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(16, 16);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), 1e-4);
  for (int step = 0; step < 1000; ++step) {
    torch::Tensor tgt = torch::randn({8, 16}, device);
    torch::Tensor mask = make_masks(tgt, device);
    torch::Tensor loss = (model->forward(tgt) + mask.sum()).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

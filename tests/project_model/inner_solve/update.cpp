#include "torch_mini.h"

struct Critic : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

// One training step of the critic, with an inner solve of its own (a dual variable fitted by 150
// steps of SGD): the inner loop trains, but the loop that calls update() is still the step loop.
float update(Critic &critic, torch::optim::SGD &opt, const at::Tensor &x, const at::Tensor &y) {
  opt.zero_grad();
  at::Tensor loss = torch::nn::functional::mse_loss(critic.forward(x), y);
  loss.backward();
  opt.step();
  at::Tensor eta = torch::randn({1}, at::TensorOptions(at::kCUDA));
  torch::optim::SGD inner(critic.parameters(), torch::optim::SGDOptions(0.1));
  for (int c = 0; c < 150; ++c) {
    inner.zero_grad();
    at::Tensor dual = torch::nn::functional::mse_loss(critic.forward(x), y);
    dual.backward();
    inner.step();
  }
  return eta.item<float>(); // once per training step (after the inner solve)
}

// torch-float64-on-device look-alike: a CPU-only program computing in double (scientific code):
// no GPU, no float64 penalty.
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(8, 1);
  model->to(torch::kDouble);
  torch::optim::LBFGS opt(model->parameters());
  auto x = torch::randn({128, 8}, torch::kDouble);
  for (int step = 0; step < 100; ++step) {
    auto y = x.to(torch::kDouble);
    auto loss = model->forward(y).pow(2).mean();
    loss.backward();
  }
  return 0;
}

// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// Clean: autocast is on and every size is a multiple of 8 (or below 8, or not a constant).
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

int main(int argc, char **) {
  const int64_t classes = 1000;
  int64_t runtime_width = 100 + argc; // not a compile-time constant
  torch::nn::Linear fc1(784, 512);
  torch::nn::Linear fc2(512, classes);
  torch::nn::Linear fc3(512, runtime_width);
  torch::nn::Conv2d stem(torch::nn::Conv2dOptions(3, 64, 7).stride(2));
  at::autocast::set_enabled(true);
  torch::optim::SGD opt(fc1->parameters(), 0.01);
  for (int i = 0; i < 10; ++i) {
    auto x = torch::randn({64, 784}, torch::kCUDA);
    opt.zero_grad();
    fc2->forward(fc1->forward(x)).sum().backward();
    opt.step();
  }
  at::autocast::set_enabled(false);
  (void)fc3;
  (void)stem;
}

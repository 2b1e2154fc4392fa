// Clean: an fp32 program that never uses CUDA (TF32 is a CUDA tensor-core format), and one that
// names kDouble (its author cares about precision) is in negative_double_ok.cpp.
#include <torch/torch.h>

int main() {
  torch::nn::Linear fc(128, 128);
  torch::optim::SGD opt(fc->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 128});
    auto loss = torch::matmul(fc(x), x.t()).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

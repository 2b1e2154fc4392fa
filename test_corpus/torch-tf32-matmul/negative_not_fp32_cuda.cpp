// Clean: files where TF32 advice does not apply: products under a half-precision model (the file
// computes in fp16), a convolution (cuDNN's TF32 is on by default), a one-off product in set-up
// code, and a user class with a matmul() method.
#include <torch/torch.h>

struct Matrix {
  Matrix matmul(const Matrix &) const { return *this; }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto w = torch::randn({64, 64}, device);
  auto gram = torch::mm(w, w.t()); // once, in set-up code
  torch::nn::Linear fc(64, 64);
  fc->to(device, torch::kHalf);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv->to(device);
  Matrix m;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 64}, device).to(torch::kHalf);
    auto y = fc(x);
    auto img = conv(torch::randn({4, 3, 32, 32}, device));
    m = m.matmul(m);
    (void)y;
    (void)img;
  }
  (void)gram;
}

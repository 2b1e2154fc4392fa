// Clean: the file decides the fp32 matmul precision: TF32 allowed for cuBLAS, and (in a second
// function) the precision set explicitly; either settles it, whatever the value.
#include <torch/torch.h>

void configure(bool exact) {
  if (exact)
    at::globalContext().setFloat32MatmulPrecision("highest");
  else
    at::globalContext().setAllowTF32CuBLAS(true);
}

int main(int argc, char **) {
  configure(argc > 1);
  torch::nn::Linear fc(512, 512);
  fc->to(torch::kCUDA);
  torch::optim::Adam opt(fc->parameters());
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({64, 512}, torch::kCUDA);
    auto loss = fc(x).matmul(x.t()).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// <accel_proj/net.h> (the project's, through -I) comes before <torch/torch.h>: the block is the
// one met through the project's header, so the file gets the torch.h PCH.
#include <accel_proj/net.h>
#include <torch/torch.h>

int main() {
  ProjNet net;
  net.to(torch::kCUDA);
  torch::optim::SGD opt(net.parameters(), 0.1);
  float seen = 0;
  for (int i = 0; i < 10; ++i) {
    auto loss = net.forward(torch::randn({2, 4}, torch::kCUDA)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    seen += loss.item<float>();
  }
  return seen > 0;
}

// `torchlint trace`'s crash test: three training steps, each reading the loss with item() (line 16),
// then a crash (SIGSEGV). The tracer must report the crash and keep the counts so far.
#include <torch/torch.h>

#include <csignal>
#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear net(4, 1);
  torch::Tensor x = torch::randn({8, 4}), y = torch::randn({8, 1});
  double total = 0;
  for (int step = 0; step < 3; ++step) {
    torch::Tensor loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    total += loss.item<double>();
  }
  std::printf("%f\n", total);
  std::fflush(stdout);
  std::raise(SIGSEGV);
  return 0;
}

// torch-cudnn-benchmark in a file with compiler errors elsewhere (issue 24): a plotting call into
// a missing library used to silence the check for the whole file. The finding says no cuDNN
// set-up exists; the code with errors names none of the set-up calls, so it cannot hide one: the
// convolutional training program on CUDA is reported. (Look-alike: error_names_setup_ok.cpp.)
// (Synthesised declarations are off here, so that the calls stay compiler errors.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: plotlib/plot.h
#include <torch/torch.h>
#include "plotlib/plot.h"

void plot_losses(const std::vector<float> &losses) {
  auto fig = plotlib::figure();
  fig->plot(losses);
}

int main() {
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 20) on CUDA (from line 19) and trains (line 27) [torch-cudnn-benchmark]
  auto ok = torch::cuda::is_available();
  torch::Device device(ok ? torch::kCUDA : torch::kCPU);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv->to(device);
  torch::optim::SGD opt(conv->parameters(), 0.1);
  std::vector<float> losses;
  for (int step = 0; step < 100; ++step) {
    auto loss = conv->forward(torch::randn({4, 3, 32, 32}, device)).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  plot_losses(losses);
}

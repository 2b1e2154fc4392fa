// TORCHLINT-CHECKS: -*,torch-channels-last
// Clean: inputs and weights are converted to channels_last.
#include <torch/torch.h>

int main() {
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 64, 3).padding(1));
  conv->to(torch::kCUDA);
  for (auto &p : conv->parameters())
    if (p.dim() == 4)
      p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
  torch::optim::SGD opt(conv->parameters(), 0.1);
  for (int i = 0; i < 100; ++i) {
    auto x = torch::randn({32, 3, 64, 64}, torch::kCUDA).contiguous(torch::MemoryFormat::ChannelsLast);
    opt.zero_grad();
    conv->forward(x).sum().backward();
    opt.step();
  }
}

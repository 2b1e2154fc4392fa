// torch-conv-bias-before-bn in a file with a compiler error elsewhere (issue 24): one call into a
// missing library inside the training loop used to silence the check for the whole file. The
// finding rests on the block's construction and forward(), which have no error: it is reported.
// (Synthesised declarations are off here, so that the call stays a compiler error.)
// TORCHLINT-OPTIONS: Synthesis=false
// TORCHLINT-MISSING-HEADERS: tracker/tracker.h
#include <torch/torch.h>
#include "tracker/tracker.h"

struct Block : torch::nn::Module {
  Block() {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: Conv2d with bias feeding BatchNorm2d: its output at line 17 goes straight into BatchNorm2d (line 17) [torch-conv-bias-before-bn]
    bn = register_module("bn", torch::nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) {
    return torch::relu(bn(conv(x)));
    // CHECK-NOTES: :[[@LINE-1]]:27: note: the convolution's output feeds BatchNorm2d here [torch-conv-bias-before-bn]
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
};

int main() {
  auto block = std::make_shared<Block>();
  torch::optim::SGD opt(block->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    auto loss = block->forward(torch::randn({4, 3, 8, 8})).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    tracker::Run::current().log("loss", loss.detach()); // a compiler error: tracker is unknown
  }
}

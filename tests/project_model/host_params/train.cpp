#include "masks.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Net net;
  Masks masks;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor boxes = net.forward(torch::rand({16, 4}, at::TensorOptions(at::kCUDA)));
    // One copy of the proposals to the host, then per-box host reads: no sync per box.
    at::Tensor boxes_cpu = boxes.detach().to(at::kCPU);
    int total = 0;
    for (int i = 0; i < 16; ++i) {
      total += masks.width(boxes_cpu[i]);
      total += masks.height(boxes_cpu[i]);
      total += masks.left(boxes_cpu[i]);
      at::Tensor row = boxes_cpu[i];
      total += masks.top(row); // a copy of a host row
    }
    // A GPU row for height(): its reads wait for the step's kernels.
    total += masks.height(boxes[0]);
    at::Tensor loss = boxes.mean() * total;
    loss.backward();
    opt.step();
  }
}

#include "boxes.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Net net;
  AnchorCache cache;
  ScoreBoard board;
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    at::Tensor out = net.forward(torch::rand({16, 4}, at::TensorOptions(at::kCUDA)));
    at::Tensor host = decodeOnHost(out);
    at::Tensor dev = decodeOnDevice(out);
    board.record(out);
    float s = host[0].item<float>();    // a host copy: no wait
    s += dev[0].item<float>();          // waits for the GPU
    s += cache.grid()[0].item<float>(); // the host grid: no wait
    s += board.best().item<float>();    // a GPU score: waits
    at::Tensor loss = out.mean() * s;
    loss.backward();
    opt.step();
  }
}

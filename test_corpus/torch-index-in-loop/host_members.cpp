// torch-index-in-loop on members of a class the file defines. Replay keeps its priorities on the
// host (its constructor's member initialiser makes them with a factory that names no device, and
// every other write stores host tensors): its per-row loop launches no GPU kernel, and is not
// reported in one file alone. DeviceReplay's member initialiser moves them to the GPU: its loop is
// reported.
#include <torch/torch.h>

struct Replay {
  explicit Replay(int64_t n) : priorities{torch::ones({n})} {}
  void decay(double f) { priorities = priorities * f; }
  torch::Tensor weights(int64_t k) {
    auto w = torch::empty({k});
    for (int64_t i = 0; i < k; ++i)
      w.index_put_({i}, priorities[i] * 0.5);
    return w;
  }
  torch::Tensor priorities;
};

struct DeviceReplay {
  explicit DeviceReplay(int64_t n) : priorities{torch::ones({n}).to(torch::kCUDA)} {}
  torch::Tensor weights(int64_t k) {
    auto w = torch::empty({k}, priorities.options());
    for (int64_t i = 0; i < k; ++i)
      w.index_put_({i}, priorities[i] * 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: `w.index_put_(...)` indexes one row or element of w per iteration of the loop at line 24 to k [torch-index-in-loop]
    return w;
  }
  torch::Tensor priorities;
};

int main() {
  torch::nn::Linear net(8, 1);
  net->to(torch::kCUDA);
  torch::optim::SGD opt(net->parameters(), 0.1);
  Replay replay(64);
  DeviceReplay device_replay(64);
  for (int step = 0; step < 1000; ++step) {
    auto w = replay.weights(64).to(torch::kCUDA) + device_replay.weights(64);
    replay.decay(0.99);
    auto loss = (net->forward(torch::randn({64, 8}, torch::kCUDA)).squeeze(1) * w).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

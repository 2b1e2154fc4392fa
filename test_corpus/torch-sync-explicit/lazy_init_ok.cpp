// torch-sync-explicit: synchronisation inside a lazy initialisation (`if (!graph_) { ...; graph_ =
// ...; }`) runs once, on the first call, not on every step (rl-cpp's execution units warm up and
// capture a CUDA graph the first time they run). Quiet here; the same synchronisation under a test
// that nothing ever sets runs on every call: lazy_init.cpp.
#include <torch/torch.h>
#include <memory>

struct Warmup {
  int rounds = 3;
};

class CachedRunner {
 public:
  explicit CachedRunner(torch::nn::Linear layer) : layer_(layer) {}

  torch::Tensor operator()(const torch::Tensor &x) {
    if (!warm_)
      prepare(x); // once: prepare() sets warm_
    if (!scratch_.defined()) {
      scratch_ = torch::empty_like(x);
      torch::cuda::synchronize(); // once: scratch_ is set just above
    }
    scratch_.copy_(x);
    return layer_->forward(scratch_);
  }

 private:
  void prepare(const torch::Tensor &x) {
    for (int i = 0; i < Warmup{}.rounds; ++i)
      layer_->forward(x);
    torch::cuda::synchronize();
    warm_ = std::make_unique<Warmup>();
  }

  torch::nn::Linear layer_;
  std::unique_ptr<Warmup> warm_;
  torch::Tensor scratch_;
};

int main() {
  torch::nn::Linear layer(16, 4);
  layer->to(torch::kCUDA);
  torch::optim::SGD opt(layer->parameters(), torch::optim::SGDOptions(0.1));
  CachedRunner run(layer);
  for (int step = 0; step < 1000; ++step) {
    opt.zero_grad();
    torch::Tensor loss = run(torch::randn({8, 16}, torch::kCUDA)).pow(2).mean();
    loss.backward();
    opt.step();
  }
}

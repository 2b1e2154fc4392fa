#include "util.h"

struct Config {
  long sample_every = 1000;
  long samples = 4;
};

struct Trainer {
  Config cfg;
  long step = 0;
  void fit(torch::optim::SGD &opt, const at::Tensor &w) {
    for (int it = 0; it < 100000; ++it) {
      at::Tensor x = torch::randn({4, 8}, at::TensorOptions(at::kCUDA));
      at::Tensor loss = (x * w).sum();
      loss.backward();
      opt.step();
      ++step;
      for (long r = 0; r < cfg.samples; ++r)
        check_row(x[r]); // every step: a warning in util.cpp
      if (step % cfg.sample_every == 0) {
        // A loop inside the logging branch: once per sample, on logging steps only (a remark).
        for (long i = 0; i < cfg.samples; ++i)
          save_sample(x[i]);
      }
    }
  }
};

int main() {
  at::Tensor w = torch::zeros({8}, at::TensorOptions(at::kCUDA));
  torch::optim::SGD opt(std::vector<at::Tensor>{w}, torch::optim::SGDOptions(0.1));
  Trainer t;
  t.fit(opt, w);
}

// torch-sync-item: statistics read once per training, in a branch that one iteration of the step
// loop takes: `if (step == warmup_steps)` on the loop's own counter, and a pruning schedule whose
// predicate (a virtual method, overridden here) returns `iter == start + steps`, passed the
// counter through two member functions (one logs it through a forwarding reference). Each runs
// on one step of the whole run: no finding.
// Look-alikes that do run on every step (an epoch counter tested inside the batch loop, a
// per-layer counter inside the step, a rank) are in once_per_run_branch.cpp.
#include <torch/torch.h>
#include <iostream>
#include <memory>

struct Schedule {
  virtual ~Schedule() = default;
  virtual bool should_prune(int iter) const = 0;
};

struct FixedSchedule : Schedule {
  int start = 1000, steps = 500;
  bool should_prune(int iter) const override { return iter == start + steps; }
};

bool is_last(long step, long total) { return step == total - 1; }

// A logger taking its arguments by forwarding reference reads the counter; it does not write it.
template <typename... Args> void log_debug(const char *format, Args &&...args) {
  if (false)
    ((std::cout << format) << ... << args);
}

struct Trainer {
  torch::Device device{torch::kCUDA};
  torch::nn::Linear net{16, 4};
  std::unique_ptr<Schedule> schedule = std::make_unique<FixedSchedule>();
  torch::optim::Adam opt{net->parameters(), 1e-3};

  void prune(int iter) {
    if (schedule && schedule->should_prune(iter)) {
      auto mask = net->weight.abs() < 1e-3;
      std::cout << "pruning " << mask.sum().item<int64_t>() << " weights\n";
    }
  }

  void step(int iter) {
    auto x = torch::randn({32, 16}, device);
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    log_debug("step ", iter);
    prune(iter);
  }

  void train(int iterations, int warmup_steps) {
    net->to(device);
    int iter = 1;
    while (iter <= iterations) {
      step(iter);
      if (iter == warmup_steps)
        std::cout << "warm-up done, weight norm " << net->weight.norm().item<float>() << "\n";
      ++iter;
    }
    for (long s = 0; s < 100; ++s) {
      auto loss = net->forward(torch::randn({32, 16}, device)).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (is_last(s, 100))
        std::cout << "final loss " << loss.item<float>() << "\n";
    }
  }
};

int main() {
  Trainer t;
  t.train(2000, 100);
}

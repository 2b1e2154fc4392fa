// torch-debug-api: negatives. Switched off, behind a run-time debug flag, the profiler outside
// training code, and user functions that only look alike.
#include <torch/torch.h>
#include <cstring>

namespace mydebug {
struct AnomalyMode {
  static void set_enabled(bool, bool = true) {}
};
struct DetectAnomalyGuard {};
} // namespace mydebug

// Profiles inference only: not training code.
void profile_inference(torch::nn::Linear &model) {
  torch::autograd::profiler::RecordProfile profile("inference.json");
  (void)model(torch::randn({4, 8}));
}

void train(torch::nn::Linear &model, torch::optim::SGD &opt, bool debug) {
  if (debug) {
    torch::autograd::DetectAnomalyGuard detect;
    model(torch::randn({4, 8})).sum().backward();
  }
  for (int step = 0; step < 10; ++step) {
    auto loss = model(torch::randn({4, 8})).sum();
    loss.backward();
    opt.step();
  }
}

int main(int argc, char **argv) {
  bool debug = argc > 1 && std::strcmp(argv[1], "--debug") == 0;
  torch::autograd::AnomalyMode::set_enabled(false);
  torch::autograd::AnomalyMode::set_enabled(debug);
  if (debug)
    torch::autograd::AnomalyMode::set_enabled(true);
  mydebug::AnomalyMode::set_enabled(true);
  mydebug::DetectAnomalyGuard guard;
  (void)guard;
  torch::nn::Linear model(8, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  profile_inference(model);
  train(model, opt, debug);
  return 0;
}

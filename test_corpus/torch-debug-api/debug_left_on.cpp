// torch-debug-api: anomaly detection and the autograd profiler left on in training code.
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::SGD &opt) {
  torch::autograd::profiler::RecordProfile profile("trace.json");
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: the autograd profiler is on [torch-debug-api]
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = model(torch::randn({4, 8})).sum();
    loss.backward();
    opt.step();
  }
}

void step_with_anomaly_guard(torch::nn::Linear &model) {
  torch::autograd::DetectAnomalyGuard detect;
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: anomaly detection is on [torch-debug-api]
  model(torch::randn({4, 8})).sum().backward();
}

int main() {
  torch::autograd::AnomalyMode::set_enabled(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: anomaly detection switched on with AnomalyMode::set_enabled(true) [torch-debug-api]
  torch::nn::Linear model(8, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  train(model, opt);
  step_with_anomaly_guard(model);
  return 0;
}

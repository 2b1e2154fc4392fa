// torch-sync-item: item() reached on every training step, directly or through helpers.
#include <torch/torch.h>
#include <vector>

static float to_float(const torch::Tensor& t) { return t.item<float>(); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: Tensor::item() copies the value to the host [torch-sync-item]

// Two calls deep: log_step() -> to_float().
static void log_step(const torch::Tensor& loss, std::vector<float>& history) {
  history.push_back(to_float(loss));
}

template <typename T>
T read_scalar(const torch::Tensor& t) {
  return t.template item<T>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: (in read_scalar(), called on every iteration of the loop in main() at line 31) [torch-sync-item]
}

int main() {
  torch::Device device(torch::kCUDA);
  auto model = torch::nn::Linear(16, 1);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto x = torch::randn({64, 16}).to(device);
  auto y = torch::randn({64, 1}).to(device);
  std::vector<float> history;
  float running = 0;
  double total = 0;
  int64_t correct = 0;

  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
    running += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: (in the loop at line 31 of main()) [torch-sync-item]
    total += loss.item().toDouble();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: Tensor::item() copies [torch-sync-item]
    correct += (model->forward(x) > 0).sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: Tensor::item() copies [torch-sync-item]
    log_step(loss, history);
    total += read_scalar<double>(loss);
    auto print_every = [&](const torch::Tensor& t) { return t.item<float>(); };
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: Tensor::item() copies [torch-sync-item]
    running += print_every(loss);
  }

  int epoch = 0;
  while (epoch < 3) {
    auto l = model->forward(x).mean();
    if (l.item<float>() < 0.01f) break;
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (in the loop at line 50 of main()) [torch-sync-item]
    ++epoch;
  }
  return static_cast<int>(running + total + correct);
}

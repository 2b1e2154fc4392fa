// torch-non-blocking-copy: batches prepared once and kept in host memory (a language model's token
// windows cut before training, a small data set collated once), walked by the training loop and
// copied to the device on every step with a blocking copy of pageable memory. The loop that
// indexes (or iterates) the container trains, so each element is that step's batch. The fix is to
// pin the batches once where the container is filled, or to move the whole container to the device
// before training when it fits.
#include <torch/torch.h>
#include <utility>
#include <vector>

std::vector<std::pair<torch::Tensor, torch::Tensor>> make_windows(const torch::Tensor &tokens, int64_t n) {
  std::vector<std::pair<torch::Tensor, torch::Tensor>> out;
  for (int64_t i = 0; i + n + 1 < tokens.size(0); i += n)
    out.emplace_back(tokens.slice(0, i, i + n), tokens.slice(0, i + 1, i + n + 1));
  return out;
}

double train_epoch(torch::nn::Linear &net, std::vector<std::pair<torch::Tensor, torch::Tensor>> windows,
                   torch::optim::Optimizer &opt, torch::Device device) {
  double total = 0;
  for (size_t i = 0; i < windows.size(); i++) {
    auto X = windows[i].first;
    auto Y = windows[i].second;
    X = X.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: batch kept in host memory copied to the device without non_blocking on every step [torch-non-blocking-copy]
    torch::Tensor y = Y.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: batch kept in host memory copied to the device without non_blocking on every step [torch-non-blocking-copy]
    auto loss = torch::mse_loss(net->forward(X.to(torch::kFloat)), y.to(torch::kFloat));
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total;
}

void fit_images(torch::nn::Linear &net, const std::vector<torch::Tensor> &images, const torch::Tensor &target,
                torch::optim::Optimizer &opt, torch::Device device) {
  for (int epoch = 0; epoch < 10; ++epoch)
    for (const auto &img : images) {
      auto loss = torch::mse_loss(net->forward(img.to(device)), target);
      // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: batch kept in host memory copied to the device without non_blocking on every step [torch-non-blocking-copy]
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(32, 32);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  auto windows = make_windows(torch::randint(100, {10000}), 32);
  for (int epoch = 0; epoch < 5; ++epoch)
    train_epoch(net, windows, opt, device);
  std::vector<torch::Tensor> images;
  for (int i = 0; i < 64; ++i)
    images.push_back(torch::rand({32}));
  fit_images(net, images, torch::zeros({32}, device), opt, device);
  return 0;
}

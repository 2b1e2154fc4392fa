// Look-alikes of batches_in_memory.cpp: batches moved to the device once before training (the
// per-step `.to(device)` is a no-op), batches pinned once and copied with non_blocking, a loop over
// kept batches that only evaluates (it trains nothing: no step loop), and an element picked by a
// variable that is not the loop's counter. No finding.
#include <torch/torch.h>
#include <vector>

void fit_on_device(torch::nn::Linear &net, const std::vector<torch::Tensor> &host, torch::optim::Optimizer &opt,
                   torch::Device device) {
  std::vector<torch::Tensor> batches;
  for (const auto &b : host)
    batches.push_back(b.to(device));
  for (int epoch = 0; epoch < 10; ++epoch)
    for (size_t i = 0; i < batches.size(); ++i) {
      auto loss = net->forward(batches[i].to(device)).pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
}

void fit_pinned(torch::nn::Linear &net, const std::vector<torch::Tensor> &pinned, torch::optim::Optimizer &opt,
                torch::Device device) {
  for (const auto &b : pinned) {
    auto loss = net->forward(b.to(device, /*non_blocking=*/true)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

double evaluate(torch::nn::Linear &net, const std::vector<torch::Tensor> &batches, torch::Device device) {
  torch::NoGradGuard no_grad;
  double total = 0;
  for (size_t i = 0; i < batches.size(); ++i)
    total += net->forward(batches[i].to(device)).sum().item<double>();
  return total;
}

void fit_hardest(torch::nn::Linear &net, const std::vector<torch::Tensor> &batches, size_t hardest,
                 torch::optim::Optimizer &opt, torch::Device device) {
  auto x = batches[hardest].to(device);
  for (int step = 0; step < 100; ++step) {
    auto loss = net->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(16, 16);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  std::vector<torch::Tensor> host, pinned;
  for (int i = 0; i < 32; ++i) {
    host.push_back(torch::rand({8, 16}));
    pinned.push_back(torch::rand({8, 16}).pin_memory());
  }
  fit_on_device(net, host, opt, device);
  fit_pinned(net, pinned, opt, device);
  fit_hardest(net, host, 3, opt, device);
  return evaluate(net, host, device) > 0 ? 0 : 1;
}

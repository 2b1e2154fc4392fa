// torch-sync-item look-alikes of debug_flag_off.cpp: per-element prints behind a flag that is a
// constant false. A local `bool vobose = false;` that nothing assigns or takes by reference, in an
// `&&` chain; a const global; `!` of a local true; the else branch of a condition that is always
// true. None of these branches ever runs, so no step pays their syncs.
#include <torch/torch.h>
#include <iostream>

const bool kTrace = false;

int main() {
  bool vobose = false;
  bool quiet = true;
  bool first = true;
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(16, 4);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({32, 16}, device);
    auto y = torch::randint(0, 4, {32}, torch::TensorOptions(device).dtype(torch::kLong));
    auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (first && vobose) {
      for (int64_t i = 0; i < y.size(0); ++i)
        std::cout << y[i].item<int64_t>() << " ";
      first = false;
    }
    if (kTrace)
      std::cout << loss.item<float>() << "\n";
    if (!quiet)
      std::cout << loss.item<float>() << "\n";
    if (quiet || step < 0) {
      opt.zero_grad();
    } else {
      std::cout << loss.item<float>() << "\n";
    }
  }
}

// torch-sync-item: debugging prints behind a flag in the training loop. A flag the command line
// can turn on (assigned from argv) runs on some runs, on every step: reported. Look-alikes in
// debug_flag_off_ok.cpp: the same prints behind a flag that is a constant false (a local never
// assigned again, a const global), which never run.
#include <torch/torch.h>
#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
  bool verbose = false;
  if (argc > 1 && std::strcmp(argv[1], "-v") == 0)
    verbose = true;
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
    if (verbose && step > 0)
      std::cout << "label " << y[0].item<int64_t>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 17 of main()) [torch-sync-item]
  }
}

// torch-cudnn-benchmark: a CPU-only conv-net whose only mentions of CUDA are strings that never
// become a device (a log message, a flag name compared with an argument) and the queries and
// seeding a CPU-only program makes too (is_available, device_count, manual_seed_all).
#include <torch/torch.h>
#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "cuda") == 0)
    std::cerr << "cuda is not supported by this example, training on the CPU\n";
  std::cout << "cuda available: " << torch::cuda::is_available() << ", devices: " << torch::cuda::device_count()
            << "\n";
  torch::cuda::manual_seed_all(0);
  const char *backend = "cudnn";
  (void)backend;
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 8, 3));
  torch::optim::SGD opt(conv->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    conv(torch::randn({4, 1, 8, 8})).sum().backward();
    opt.step();
  }
  return 0;
}

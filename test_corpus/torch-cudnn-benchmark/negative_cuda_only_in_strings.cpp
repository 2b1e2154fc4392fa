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
  torch::nn::Sequential net(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 4, 5).stride(2)), torch::nn::Flatten());
  torch::optim::Adam opt(net->parameters());
  for (int epoch = 0; epoch < 2; ++epoch) {
    auto images = torch::rand({2, 1, 12, 12});
    auto loss = net->forward(images).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

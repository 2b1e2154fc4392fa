// torch-cudnn-benchmark: main() hands the training loop to a std::thread by name; the function is
// reached through that reference (and, being this file's own function, counts by itself), so the
// program trains and is reported at main(). Look-alike of tests/project_model/cudnn_inference_shared_header.
#include <torch/torch.h>
#include <thread>

struct NetImpl : torch::nn::Module {
  torch::nn::Conv2d conv{nullptr};
  NetImpl() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 4).stride(4))); }
  torch::Tensor forward(torch::Tensor x) { return conv->forward(x).mean({2, 3}); }
};
TORCH_MODULE(Net);

void train_loop(Net net, torch::Device device) {
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int i = 0; i < 100; ++i) {
    opt.zero_grad();
    net->forward(torch::randn({8, 1, 64, 64}, device)).sum().backward();
    opt.step();
  }
}

int main() {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 9) on CUDA (from line 25) and trains (line 18) without the cuDNN auto-tuner [torch-cudnn-benchmark]
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  std::thread worker(train_loop, net, device);
  worker.join();
  return 0;
}

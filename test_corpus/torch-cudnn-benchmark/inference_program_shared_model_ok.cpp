// torch-cudnn-benchmark: an inference program whose model class also carries the training method
// that only a separate training program calls (a model header shared by train_main.cpp and
// infer_main.cpp; written inline here). This main() never reaches fit(): the program does not
// train, so the auto-tuner advice for training programs does not apply. No finding.
// Look-alikes that do reach a training call: trains_through_virtual_call.cpp,
// trains_through_thread.cpp.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Conv2d conv{nullptr};
  torch::optim::Optimizer *opt = nullptr;
  NetImpl() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 4).stride(4))); }
  torch::Tensor forward(torch::Tensor x) { return conv->forward(x).mean({2, 3}); }
  void fit(const torch::Tensor &x, const torch::Tensor &y) { // the training program's entry
    for (int i = 0; i < 100; ++i) {
      opt->zero_grad();
      torch::mse_loss(forward(x), y).backward();
      opt->step();
    }
  }
  torch::Tensor infer(const torch::Tensor &x) {
    torch::NoGradGuard no_grad;
    return forward(x);
  }
};
TORCH_MODULE(Net);

bool next_frame(torch::Tensor &frame);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  net->eval();
  auto frame = torch::zeros({1, 1, 64, 64}, device);
  while (next_frame(frame))
    (void)net->infer(frame);
  return 0;
}

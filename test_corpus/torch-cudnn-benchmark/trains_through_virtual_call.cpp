// torch-cudnn-benchmark: the training call is reached from main() only through a chain of calls
// and a virtual method (run() calls Stage::go(), which FitStage overrides with the training loop):
// the program trains (the file's own functions count by themselves too), and is reported at main(). Look-alike of tests/project_model/cudnn_inference_shared_header.
#include <torch/torch.h>
#include <memory>

struct NetImpl : torch::nn::Module {
  torch::nn::Conv2d conv{nullptr};
  NetImpl() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 4).stride(4))); }
  torch::Tensor forward(torch::Tensor x) { return conv->forward(x).mean({2, 3}); }
};
TORCH_MODULE(Net);

struct Stage {
  virtual ~Stage() = default;
  virtual void go(Net &net, torch::Device device) = 0;
};

struct FitStage : Stage {
  void go(Net &net, torch::Device device) override {
    torch::optim::SGD opt(net->parameters(), 0.01);
    for (int i = 0; i < 100; ++i) {
      opt.zero_grad();
      net->forward(torch::randn({8, 1, 64, 64}, device)).sum().backward();
      opt.step();
    }
  }
};

void run(Stage &stage, Net &net, torch::Device device) { stage.go(net, device); }

int main() {
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this program runs convolutions (Conv2d at line 9) on CUDA (from line 34) and trains (line 24) without the cuDNN auto-tuner [torch-cudnn-benchmark]
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  std::unique_ptr<Stage> stage = std::make_unique<FitStage>();
  run(*stage, net, device);
  return 0;
}

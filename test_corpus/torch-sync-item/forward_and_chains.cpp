// torch-sync-item: forward() runs on every step, and so does everything it calls.
#include <torch/torch.h>

struct ScaleImpl : torch::nn::Module {
  double threshold(const torch::Tensor& x) { return x.abs().max().item<double>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: (in ScaleImpl::threshold(), called from ScaleImpl::forward(), which runs on every forward pass) [torch-sync-item]
  torch::Tensor forward(torch::Tensor x) {
    auto s = x.sum().item().toFloat();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: (in ScaleImpl::forward(), which runs on every forward pass) [torch-sync-item]
    return x * s / threshold(x);
  }
};
TORCH_MODULE(Scale);

struct Net : torch::nn::Cloneable<Net> {
  void reset() override {}
  torch::Tensor forward(const torch::Tensor& x) {
    if (x.mean().item<float>() > 0) return x;
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: (in Net::forward(), which runs on every forward pass) [torch-sync-item]
    return -x;
  }
};

int main() {
  Scale scale;
  auto out = scale(torch::randn({8}));
  (void)out;
}

// The program trains on CUDA when there is one: the sync checks stay quiet on CPU-only programs.
torch::Device trainingDevice() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }

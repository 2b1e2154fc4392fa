// TORCHLINT-CHECKS: -*,torch-tensor-core-dims
// A model trained in fp16: layer sizes that are not multiples of 8 miss Tensor Core kernels.
#include <torch/torch.h>

constexpr int64_t kVocab = 10001;

struct Net : torch::nn::Module {
  Net() {
    embed_proj = register_module("embed_proj", torch::nn::Linear(512, kVocab));
    // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: out_features = 10001 is not a multiple of 8 [torch-tensor-core-dims]
    hidden = register_module("hidden", torch::nn::Linear(torch::nn::LinearOptions(300, 512).bias(false)));
    // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: in_features = 300 is not a multiple of 8 [torch-tensor-core-dims]
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 100, 3).padding(1)));
    // CHECK-MESSAGES: :[[@LINE-1]]:82: warning: out_channels = 100 is not a multiple of 8 [torch-tensor-core-dims]
    head = register_module("head", torch::nn::Linear(512, 10));
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: out_features = 10 is not a multiple of 8 [torch-tensor-core-dims]
  }
  torch::Tensor forward(torch::Tensor x) { return head->forward(hidden->forward(x)); }
  torch::nn::Linear embed_proj{nullptr}, hidden{nullptr}, head{nullptr};
  torch::nn::Conv2d conv{nullptr};
};

int main() {
  auto net = std::make_shared<Net>();
  net->to(torch::kCUDA, torch::kHalf);
  torch::optim::SGD opt(net->parameters(), 0.01);
  for (int i = 0; i < 10; ++i) {
    auto x = torch::randn({64, 300}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kHalf));
    opt.zero_grad();
    net->forward(x).sum().backward();
    opt.step();
  }
}

// torch-sync-item: a custom autograd function whose forward() saves a small host tensor of
// settings (made by torch::tensor without a device) in ctx->saved_data, and whose backward(),
// run on every step, reads it back with toTensor() and item(): the values are already in host
// memory, nothing waits for the GPU. Read directly and through a helper that takes the tensor.
// The same shapes with a device tensor saved, another key read, or the context handed to a
// helper that may store under the key are in autograd_saved_device_tensor.cpp. No finding.
#include <torch/torch.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct BlurSettings {
  float sigma = 1.5f;
  float clamp = 4.0f;
  torch::Tensor pack() const { return torch::tensor({sigma, clamp}, torch::TensorOptions().dtype(torch::kFloat32)); }
  static BlurSettings unpack(const torch::Tensor &t) { return {t[0].item<float>(), t[1].item<float>()}; }
};

struct SoftBlur : torch::autograd::Function<SoftBlur> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &x, BlurSettings s) {
    ctx->saved_data["settings"] = s.pack();
    ctx->saved_data["limit"] = torch::full({1}, s.clamp);
    ctx->save_for_backward({x});
    return (x * s.sigma).clamp(-s.clamp, s.clamp);
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    BlurSettings s = BlurSettings::unpack(ctx->saved_data["settings"].toTensor());
    float limit = ctx->saved_data["limit"].toTensor().item<float>();
    return {grads[0].clamp(-limit, limit) * s.sigma, torch::Tensor()};
  }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 8);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  BlurSettings settings;
  for (int step = 0; step < 1000; ++step) {
    auto y = SoftBlur::apply(net->forward(torch::randn({32, 8}, device)), settings);
    auto loss = y.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

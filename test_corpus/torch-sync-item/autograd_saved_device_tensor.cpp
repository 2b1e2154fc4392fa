// torch-sync-item: custom autograd functions whose backward(), run on every step, reads a tensor
// from ctx->saved_data with item(), where what forward() saved under that key may be on the GPU:
// a tensor argument that lives on the device, a key other than the host tensor's, and a key that
// a helper given the context may also store under. Each read waits for the GPU. The host
// settings tensor look-alike is autograd_saved_host_tensor_ok.cpp.
#include <torch/torch.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct ScaledTanh : torch::autograd::Function<ScaledTanh> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &x, const torch::Tensor &scale) {
    ctx->saved_data["scale"] = scale;
    ctx->saved_data["host_scale"] = scale.cpu();
    ctx->save_for_backward({x});
    return torch::tanh(x) * scale;
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    float s = ctx->saved_data["scale"].toTensor().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: Tensor::item() copies the value to the host [torch-sync-item]
    float h = ctx->saved_data["host_scale"].toTensor().item<float>();
    auto x = ctx->get_saved_variables()[0];
    return {grads[0] * (1 - torch::tanh(x).pow(2)) * (s + h - h), torch::Tensor()};
  }
};

void remember_bound(AutogradContext *ctx, const torch::Tensor &b);

struct BoundedRelu : torch::autograd::Function<BoundedRelu> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &x, const torch::Tensor &bound) {
    ctx->saved_data["bound"] = torch::ones({1});
    remember_bound(ctx, bound);
    ctx->save_for_backward({x});
    return x.clamp(0, 6);
  }
  static variable_list backward(AutogradContext *ctx, variable_list grads) {
    float b = ctx->saved_data["bound"].toTensor().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: Tensor::item() copies the value to the host [torch-sync-item]
    return {grads[0] * b, torch::Tensor()};
  }
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(8, 8);
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto scale = torch::full({1}, 2.0, torch::TensorOptions().device(device));
  for (int step = 0; step < 1000; ++step) {
    auto h = net->forward(torch::randn({32, 8}, device));
    auto loss = (ScaledTanh::apply(h, scale) + BoundedRelu::apply(h, scale)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

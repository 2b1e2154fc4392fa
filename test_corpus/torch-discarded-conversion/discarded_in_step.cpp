// torch-discarded-conversion: Tensor conversions written as statements of their own, in a training
// step and in setup code (reported in both: the tensor is not converted wherever it runs). The
// fix-it assigns the result back where the object is a local, a by-value parameter or a field.
#include <torch/torch.h>

struct Batcher {
  torch::Tensor buffer_;
  torch::Device device_{torch::kCUDA};
  void prepare() {
    buffer_.to(device_);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: Tensor::to() returns the converted tensor and leaves 'buffer_' as it was [torch-discarded-conversion]
    // CHECK-FIXES: buffer_ = buffer_.to(device_);
  }
};

torch::Tensor normalise(torch::Tensor images) {
  images.to(torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: Tensor::to() returns the converted tensor and leaves 'images' as it was [torch-discarded-conversion]
  // CHECK-FIXES: images = images.to(torch::kFloat);
  return images.div(255);
}

void move_all(std::vector<torch::Tensor> &tensors, torch::Device device) {
  for (auto &t : tensors)
    t.to(device); // a reference into the caller's vector: reported, no fix-it
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: Tensor::to() returns the converted tensor and leaves 't' as it was [torch-discarded-conversion]
}

void use_const(const torch::Tensor &x) {
  x.contiguous(); // a const reference cannot be assigned: reported, no fix-it
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: Tensor::contiguous() returns a contiguous copy and leaves 'x' as it was [torch-discarded-conversion]
}

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(8, 2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto weights = torch::ones({2});
  weights.cuda(); // setup code: still wrong, weights stays on the CPU
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: Tensor::cuda() returns the converted tensor and leaves 'weights' as it was [torch-discarded-conversion]
  // CHECK-FIXES: weights = weights.cuda(); // setup code: still wrong, weights stays on the CPU
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8});
    auto y = torch::randint(0, 2, {16});
    x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the copy runs for nothing and the code after it still uses the unconverted tensor; assign it: 'x = x.to(...)' (in the loop at line 43 of main()) [torch-discarded-conversion]
    // CHECK-FIXES: x = x.to(device);
    y.to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: Tensor::to() returns the converted tensor and leaves 'y' as it was [torch-discarded-conversion]
    // CHECK-FIXES: y = y.to(device, /*non_blocking=*/true);
    auto out = model->forward(x.to(device));
    out.transpose(0, 1).contiguous();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: Tensor::contiguous() returns a contiguous copy and leaves 'out.transpose(0, 1)' as it was [torch-discarded-conversion]
    if (step == 0)
      out.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: Tensor::cpu() returns the converted tensor [torch-discarded-conversion]
    // CHECK-FIXES: out = out.cpu();
    auto loss = torch::nn::functional::cross_entropy(out, y.to(device));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  return 0;
}

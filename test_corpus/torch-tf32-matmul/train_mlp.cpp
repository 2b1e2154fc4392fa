// torch-tf32-matmul: an MLP trained on CUDA in fp32; nothing in the file allows TF32, so every
// Linear runs its GEMMs in full fp32. Reported once, at the first product in the loop.
#include <torch/torch.h>

struct MlpImpl : torch::nn::Module {
  torch::nn::Linear fc1{1024, 1024}, fc2{1024, 10};
  MlpImpl() {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: Linear forward() runs a float32 matrix product on CUDA (CUDA from line 22) and the file never allows TF32 for cuBLAS [torch-tf32-matmul]
    return fc2(x);
  }
};
TORCH_MODULE(Mlp);

int main() {
  Mlp model;
  torch::optim::SGD opt(model->parameters(), 0.01);
  torch::Device device(torch::kCUDA);
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({256, 1024}, device);
    auto y = torch::randint(0, 10, {256}, device);
    auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

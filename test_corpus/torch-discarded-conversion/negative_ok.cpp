// torch-discarded-conversion, look-alikes: Module::to() (converts in place), in-place tensor
// methods (the `_` ones), a result that is used (assigned, returned, passed on, chained), a result
// discarded on purpose with a cast to void, and conversions of user types that are not tensors.
#include <torch/torch.h>

struct Image {
  Image &to(torch::Device) { return *this; } // a user type's own to(): not a tensor
  Image &contiguous() { return *this; }
};

torch::Tensor ready(torch::Tensor x, torch::Device d) { return x.to(d).contiguous(); }

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(8, 2);
  model->to(device);                 // Module::to() converts the module in place
  model->to(torch::kFloat);
  torch::nn::Sequential seq(torch::nn::Linear(8, 8));
  seq->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  Image img;
  img.to(device);
  img.contiguous();
  auto w = torch::ones({2});
  w = w.to(device);                  // assigned back
  (void)w.to(torch::kHalf);          // discarded on purpose: a warm-up of the conversion kernel
  static_cast<void>(w.cuda());
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({16, 8}).to(device);
    auto y = torch::randint(0, 2, {16}).to(device);
    x.mul_(2.0);                     // in-place methods modify x
    x.clamp_(-1, 1);
    x.set_requires_grad(false);
    auto out = model->forward(ready(x, device));
    auto loss = torch::nn::functional::cross_entropy(out.contiguous(), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.to(torch::kCPU).item<float>() << "\n";
  }
  return 0;
}

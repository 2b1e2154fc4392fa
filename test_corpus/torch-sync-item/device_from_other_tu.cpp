// torch-sync-item: main() is here and nothing here names CUDA, but the device comes from a function
// defined in another TU, which may well pick CUDA: the program is not provably CPU-only.
#include <torch/torch.h>
#include <iostream>

torch::Device trainingDevice();  // defined in device.cpp

int main() {
  torch::Device device = trainingDevice();
  torch::nn::Linear model(8, 1);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  double total = 0;
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({32, 8}, device);
    auto loss = torch::mse_loss(model->forward(x), x.sum(1, true));
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: (in the loop at line 14 of main()) [torch-sync-item]
  }
  std::cout << total << "\n";
}

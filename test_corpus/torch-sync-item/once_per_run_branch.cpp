// torch-sync-item: equality tests that look like once-per-run branches but hold on every step of
// some stretch of the run: an epoch counter tested inside the batch loop (every step of epoch 0),
// a per-layer counter inside the step (every step), a counter the loop resets (once per
// interval, but this file cannot tell the interval: a remark would be wrong, so it reports), a
// rank (every step on rank 0). The once-per-run look-alikes are in once_per_run_branch_ok.cpp.
#include <torch/torch.h>
#include <iostream>
#include <vector>

void train(int rank, int epochs) {
  torch::Device device(torch::kCUDA);
  std::vector<torch::nn::Linear> layers{torch::nn::Linear(16, 16), torch::nn::Linear(16, 4)};
  std::vector<torch::Tensor> params;
  for (auto &l : layers) {
    l->to(device);
    for (auto &p : l->parameters())
      params.push_back(p);
  }
  torch::optim::SGD opt(params, 0.1);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int batch = 0; batch < 500; ++batch) {
      auto x = torch::randn({32, 16}, device);
      for (size_t l = 0; l < layers.size(); ++l) {
        x = layers[l]->forward(x);
        if (l == 0)
          std::cout << "first layer mean " << x.mean().item<float>() << "\n";
        // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 21 of train()) [torch-sync-item]
      }
      auto loss = x.pow(2).mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
      if (epoch == 0)
        std::cout << "epoch 0 loss " << loss.item<float>() << "\n";
        // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 21 of train()) [torch-sync-item]
      if (rank == 0)
        std::cout << "rank 0 loss " << loss.item<float>() << "\n";
        // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; keep the value on the device (e.g. accumulate `total += loss.detach()`) and read it once per epoch or logging interval (in the loop at line 21 of train()) [torch-sync-item]
    }
  }
}

int main() { train(0, 10); }

// torch-non-blocking-copy: a local initialised from the batch and then replaced by its own copy to
// the device (`torch::Tensor x = batch.data; x = x.to(device);`, a BERT pre-training loop's style):
// the copy reads the batch, since the initialiser is the only write that reaches it.
// Look-alikes (quiet): the value copied is computed from the batch (new pageable memory that
// non_blocking cannot overlap), or a branch may have replaced it before the copy.
#include <torch/torch.h>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto ds = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions(64));
  torch::nn::Linear model(784, 10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto &batch : *loader) {
      torch::Tensor x = batch.data;
      x = x.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      torch::Tensor y = batch.target;
      y = y.view({-1}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      torch::Tensor scaled = batch.data;
      scaled = scaled * 2;
      scaled = scaled.to(device);                     // quiet: a new host tensor, not the batch
      torch::Tensor maybe = batch.data;
      if (epoch > 0)
        maybe = maybe.flip(0);
      maybe = maybe.to(device);                       // quiet: the branch may have replaced it
      auto out = model(x.view({x.size(0), -1}) + scaled.view({x.size(0), -1}) + maybe.view({x.size(0), -1}));
      auto loss = torch::nn::functional::cross_entropy(out, y);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  return 0;
}

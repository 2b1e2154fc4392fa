// torch-sync-item, negative look-alike of template_validation_pass.cpp: a function template over
// the module type whose loop calls no forward() on the dependent module (it prints the first
// weights, reading each with item()), run once after training. Its loop runs no step: the reads
// happen once per run, not per step.
#include <torch/torch.h>
#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x.view({x.size(0), -1})); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

template <typename TNet> void dump_weights(torch::nn::ModuleHolder<TNet> net) {
  for (int64_t i = 0; i < 10; ++i)
    std::cout << net->fc->weight[i][0].template item<float>() << "\n";
}

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  auto train_set = torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>());
  auto train_loader = torch::data::make_data_loader(std::move(train_set), torch::data::DataLoaderOptions(64).workers(4));
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *train_loader) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(batch.data.to(device)), batch.target.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  dump_weights(net);
}

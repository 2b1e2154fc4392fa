// torch-sync-item: a validation pass written as a function template over the network's module
// type (`torch::nn::ModuleHolder<TNet>`, as image-captioning tutorials do), run after every epoch.
// In the template's pattern `net->forward(x)` is a call on a dependent object; the pattern and its
// instantiation are one function to the model of the file, so that call must count as the
// forward pass it is: the loop over the validation loader then runs a step per batch, and its
// item() reads sync per batch. A template whose loop runs no forward (dump_weights(), after
// training) stays quiet: template_validation_pass_ok.cpp.
#include <torch/torch.h>
#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x.view({x.size(0), -1})); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

template <typename TNet, typename TLoader>
void validate(torch::nn::ModuleHolder<TNet> net, TLoader &loader, const torch::Device &device) {
  torch::NoGradGuard no_grad;
  net->eval();
  double running = 0;
  int64_t correct = 0;
  for (auto &batch : *loader) {
    auto x = batch.data.to(device);
    auto y = batch.target.to(device);
    auto out = net->forward(x);
    running += (out - torch::one_hot(y, 10)).pow(2).mean().template item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:69: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; accumulate the value on the device instead (`total += loss.detach()`: without detach() every step's autograd graph stays alive) and read it once per logging interval (in the loop at line 24 of validate()) [torch-sync-item]
    // CHECK-MESSAGES: :[[@LINE-2]]:69: note: accumulate on the device instead: a tensor accumulator declared before the loop (`auto total = torch::zeros({}, loss.options());`, `total += loss.detach();`) and one `total.item<float>()` after it [torch-sync-item]
    correct += out.argmax(1).eq(y).sum().template item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: Tensor::item() copies the value to the host and blocks until the GPU has finished all queued work; accumulate the value on the device instead (`total += loss.detach()`: without detach() every step's autograd graph stays alive) and read it once per logging interval (in the loop at line 24 of validate()) [torch-sync-item]
    // CHECK-MESSAGES: :[[@LINE-2]]:51: note: accumulate on the device instead: a tensor accumulator declared before the loop (`auto total = torch::zeros({}, loss.options());`, `total += loss.detach();`) and one `total.item<float>()` after it [torch-sync-item]
  }
  net->train();
  std::cout << running << " " << correct << "\n";
}

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  net->to(device);
  torch::optim::SGD opt(net->parameters(), 0.01);
  auto train_set = torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>());
  auto train_loader = torch::data::make_data_loader(std::move(train_set), torch::data::DataLoaderOptions(64).workers(4));
  auto val_set = torch::data::datasets::MNIST("data", torch::data::datasets::MNIST::Mode::kTest)
                     .map(torch::data::transforms::Stack<>());
  auto val_loader = torch::data::make_data_loader(std::move(val_set), torch::data::DataLoaderOptions(64).workers(4));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *train_loader) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(batch.data.to(device)), batch.target.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    validate(net, val_loader, device);
  }
}

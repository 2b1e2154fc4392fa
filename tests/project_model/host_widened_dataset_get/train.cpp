#include "datasets.h"

struct Net : torch::nn::Module {
  at::Tensor forward(const at::Tensor &x);
};

int main() {
  Store store;
  Net net;
  torch::Device device(torch::kCUDA);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  auto pixels = torch::data::make_data_loader(PixelSet(store).map(torch::data::transforms::Stack<>()), 32);
  auto steps = torch::data::make_data_loader(StepSet().map(torch::data::transforms::Stack<>()), 32);
  auto depths = torch::data::make_data_loader(DepthSet().map(torch::data::transforms::Stack<>()), 32);
  auto mixed = torch::data::make_data_loader(MixedSet().map(torch::data::transforms::Stack<>()), 32);
  auto unstacked = torch::data::make_data_loader(StepSet(), 32);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *pixels) {
      opt.zero_grad();
      auto x = batch.data.to(device);   // widened in PixelSet::get() (datasets.cpp)
      auto y = batch.target.to(device); // uint8 labels widened to int64: not reported
      net.forward(x + y).backward();
      opt.step();
    }
    for (auto &batch : *steps) {
      opt.zero_grad();
      auto data = batch.data;
      auto x = data.to(device);         // widened in StepSet::get(), step by step
      auto y = batch.target.to(device); // float targets never converted
      net.forward(x + y).backward();
      opt.step();
    }
    for (auto &batch : *depths) {
      opt.zero_grad();
      net.forward(batch.data.to(device)).backward(); // float data: nothing to say
      opt.step();
    }
    for (auto &batch : *mixed) {
      opt.zero_grad();
      net.forward(batch.data.to(device)).backward(); // one return is float data
      opt.step();
    }
    for (auto &batch : *unstacked) {
      // A loader without Stack: the batch is a vector of examples, collated by hand.
      std::vector<torch::Tensor> images, targets;
      std::transform(batch.begin(), batch.end(), std::back_inserter(images), [](auto &e) { return e.data; });
      std::transform(batch.begin(), batch.end(), std::back_inserter(targets), [](auto &e) { return e.target; });
      opt.zero_grad();
      auto x = torch::stack(images).to(device);  // widened in StepSet::get()
      auto y = torch::stack(targets).to(device); // float targets
      net.forward(x + y).backward();
      opt.step();
    }
  }
}

// torch-host-convert-then-copy look-alikes of dataset_get_steps.cpp, quiet: a get() whose last
// step narrows the image back to uint8 (the copy carries uint8), one whose image is replaced by
// float data after the conversion, and hand collation of the targets (float data never converted)
// or of a narrowed member (the lambda converts it back to uint8).
#include <torch/torch.h>
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

class NarrowSet : public torch::data::datasets::Dataset<NarrowSet> {
public:
  torch::data::Example<> get(size_t index) override {
    auto img = torch::from_blob(frames_[index].data(), {64, 64, 3}, torch::kByte).clone();
    img = img.to(torch::kF32);
    img = img.clamp(0, 200);
    img = img.to(torch::kByte); // narrowed back: uint8 crosses the bus
    return {img, torch::zeros({6})};
  }
  torch::optional<size_t> size() const override { return frames_.size(); }
  std::vector<std::vector<uint8_t>> frames_;
};

class ReplacedSet : public torch::data::datasets::Dataset<ReplacedSet> {
public:
  torch::data::Example<> get(size_t index) override {
    auto img = torch::from_blob(frames_[index].data(), {64, 64, 3}, torch::kByte).to(torch::kF32);
    img = torch::from_blob(depth_[index].data(), {64, 64, 3}, torch::kFloat).clone(); // float data
    return {img, torch::zeros({6})};
  }
  torch::optional<size_t> size() const override { return frames_.size(); }
  std::vector<std::vector<uint8_t>> frames_;
  std::vector<std::vector<float>> depth_;
};

class WideSet : public torch::data::datasets::Dataset<WideSet> {
public:
  torch::data::Example<> get(size_t index) override {
    auto img = torch::from_blob(frames_[index].data(), {64, 64, 3}, torch::kByte).to(torch::kF32);
    return {img, torch::rand({6})};
  }
  torch::optional<size_t> size() const override { return frames_.size(); }
  std::vector<std::vector<uint8_t>> frames_;
};

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(64 * 64 * 3, 6)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.flatten(1)); }
  torch::nn::Linear fc{nullptr};
};

template <typename Loader> void train(Net &net, torch::optim::Optimizer &opt, Loader &loader, torch::Device device) {
  for (auto &batch : loader) {
    std::vector<torch::Tensor> images;
    std::transform(batch.begin(), batch.end(), std::back_inserter(images), [](auto &e) { return e.data; });
    torch::Tensor x = torch::stack(images).to(device).to(torch::kF32);
    auto loss = net.forward(x).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), 0.01);
  auto narrow = torch::data::make_data_loader(NarrowSet(), torch::data::DataLoaderOptions(16).workers(2));
  auto replaced = torch::data::make_data_loader(ReplacedSet(), torch::data::DataLoaderOptions(16).workers(2));
  auto wide = torch::data::make_data_loader(WideSet(), torch::data::DataLoaderOptions(16).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch) {
    train(net, opt, *narrow, device);
    train(net, opt, *replaced, device);
    for (auto &batch : *wide) {
      std::vector<torch::Tensor> targets, bytes;
      std::transform(batch.begin(), batch.end(), std::back_inserter(targets), [](auto &e) { return e.target; });
      std::transform(batch.begin(), batch.end(), std::back_inserter(bytes),
                     [](auto &e) { return e.data.to(torch::kByte); });
      torch::Tensor y = torch::stack(targets).to(device);
      torch::Tensor b = torch::stack(bytes).to(device);
      auto loss = net.forward(b.to(torch::kF32)).sum() + y.sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
}

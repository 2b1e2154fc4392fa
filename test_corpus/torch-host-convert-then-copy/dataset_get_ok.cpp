// torch-host-convert-then-copy: look-alikes of dataset_get.cpp. A data set that returns the uint8
// pixels (the loop converts after the copy: the fix); one that returns float data it did not
// widen (float64 features narrowed to float32: converting first is right); the labels (int64
// from the start). A CPU-only program: dataset_get_cpu_ok.cpp.
#include <torch/torch.h>
#include <cstdint>
#include <vector>

class RawPixelSet : public torch::data::datasets::Dataset<RawPixelSet> {
public:
  explicit RawPixelSet(std::vector<std::vector<uint8_t>> images) : images_(std::move(images)) {}
  torch::data::Example<> get(size_t index) override {
    auto raw = torch::from_blob(images_[index].data(), {3, 32, 32}, torch::kByte).clone();
    return {raw, torch::tensor(static_cast<int64_t>(index % 10))};
  }
  torch::optional<size_t> size() const override { return images_.size(); }

private:
  std::vector<std::vector<uint8_t>> images_;
};

class FeatureSet : public torch::data::datasets::Dataset<FeatureSet> {
public:
  explicit FeatureSet(torch::Tensor features) : features_(std::move(features)) {}
  torch::data::Example<> get(size_t index) override {
    return {features_[index].to(torch::kFloat), torch::tensor(static_cast<int64_t>(index % 10))};
  }
  torch::optional<size_t> size() const override { return features_.size(0); }

private:
  torch::Tensor features_;
};

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(3 * 32 * 32, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.flatten(1)); }
  torch::nn::Linear fc{nullptr};
};

void step(Classifier &net, torch::optim::Optimizer &opt, const torch::Tensor &x, const torch::Tensor &y) {
  auto loss = torch::nn::functional::cross_entropy(net.forward(x), y);
  opt.zero_grad();
  loss.backward();
  opt.step();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<std::vector<uint8_t>> images(512, std::vector<uint8_t>(3 * 32 * 32, 7));
  Classifier net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), 0.01);
  auto raw = torch::data::make_data_loader(RawPixelSet(images).map(torch::data::transforms::Stack<>()),
                                           torch::data::DataLoaderOptions(64).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *raw)
      step(net, opt, batch.data.to(device).to(torch::kFloat).div(255), batch.target.to(device));

  auto features = torch::data::make_data_loader(
      FeatureSet(torch::rand({512, 3, 32, 32}, torch::kDouble)).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(64).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *features)
      step(net, opt, batch.data.to(device), batch.target.to(device));
}

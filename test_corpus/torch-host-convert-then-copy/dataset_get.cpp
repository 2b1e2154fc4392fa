// torch-host-convert-then-copy: a torch::data data set whose get() wraps uint8 pixels and converts
// them to float32 on the host; the training loop copies each stacked batch to the GPU. The copy
// carries four times the bytes of the uint8 batch, and the conversion runs on the CPU in the
// loader. Through the loader of a template training function, through a local holding the batch's
// member, and with Normalize<> between (it keeps the float32 values on the host).
// (Look-alikes: dataset_get_ok.cpp.)
#include <torch/torch.h>
#include <cstdint>
#include <vector>

class PixelSet : public torch::data::datasets::Dataset<PixelSet> {
public:
  explicit PixelSet(std::vector<std::vector<uint8_t>> images) : images_(std::move(images)) {}
  torch::data::Example<> get(size_t index) override {
    auto raw = torch::from_blob(images_[index].data(), {3, 32, 32}, torch::kByte);
    auto image = raw.to(torch::kFloat).div(255);
    return {image, torch::tensor(static_cast<int64_t>(index % 10))};
  }
  torch::optional<size_t> size() const override { return images_.size(); }

private:
  std::vector<std::vector<uint8_t>> images_;
};

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(3 * 32 * 32, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.flatten(1)); }
  torch::nn::Linear fc{nullptr};
};

template <typename Loader>
void train_epoch(Classifier &net, torch::optim::Optimizer &opt, Loader &loader, torch::Device device) {
  for (auto &batch : loader) {
    auto x = batch.data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the float32 tensor 'batch.data' is what the data set's PixelSet::get() returns, converted from uint8 on the host (line 16), and is copied to the device here: 4 times the bytes cross the bus and the conversion runs on the CPU; return the uint8 tensor from get() and convert on the device after the copy (in the loop at line 33 of train_epoch()) [torch-host-convert-then-copy]
    auto y = batch.target.to(device);
    auto loss = torch::nn::functional::cross_entropy(net.forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<std::vector<uint8_t>> images(512, std::vector<uint8_t>(3 * 32 * 32, 7));
  Classifier net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), 0.01);
  auto loader = torch::data::make_data_loader(PixelSet(images).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(64).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch)
    train_epoch(net, opt, *loader, device);

  auto normalized = torch::data::make_data_loader(
      PixelSet(images)
          .map(torch::data::transforms::Normalize<>(0.5, 0.25))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(64).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *normalized) {
      auto images_in = batch.data;
      auto x = images_in.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the float32 tensor 'images_in' is what the data set's PixelSet::get() returns, converted from uint8 on the host (line 16), and is copied to the device here: 4 times the bytes cross the bus and the conversion runs on the CPU; return the uint8 tensor from get() and convert on the device after the copy (in the loop at line 61 of main()) [torch-host-convert-then-copy]
      auto loss = torch::nn::functional::cross_entropy(net.forward(x), batch.target.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
}

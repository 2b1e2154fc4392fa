// torch-host-convert-then-copy look-alike of dataset_get.cpp: the same data set and loop in a
// program that never uses CUDA (the device is the CPU): no bus to cross.
#include <torch/torch.h>
#include <cstdint>
#include <vector>

class PixelSet : public torch::data::datasets::Dataset<PixelSet> {
public:
  explicit PixelSet(std::vector<std::vector<uint8_t>> images) : images_(std::move(images)) {}
  torch::data::Example<> get(size_t index) override {
    auto image = torch::from_blob(images_[index].data(), {3, 32, 32}, torch::kByte).to(torch::kFloat).div(255);
    return {image, torch::tensor(static_cast<int64_t>(index % 10))};
  }
  torch::optional<size_t> size() const override { return images_.size(); }

private:
  std::vector<std::vector<uint8_t>> images_;
};

int main() {
  torch::Device device(torch::kCPU);
  std::vector<std::vector<uint8_t>> images(512, std::vector<uint8_t>(3 * 32 * 32, 7));
  auto net = torch::nn::Linear(3 * 32 * 32, 10);
  torch::optim::SGD opt(net->parameters(), 0.01);
  auto loader = torch::data::make_data_loader(PixelSet(images).map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(64).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch)
    for (auto &batch : *loader) {
      auto loss = torch::nn::functional::cross_entropy(net->forward(batch.data.to(device).flatten(1)),
                                                       batch.target.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
}

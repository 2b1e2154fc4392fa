// torch-host-convert-then-copy look-alikes, quiet: uint8 labels and indices widened to int64 on
// the host before the copy. They are small next to the images, and the loss and index kernels on
// the device take int64: copying uint8 and converting there adds a launch per step for a few
// bytes. (Images widened to float are reported: dataset_get.cpp, images.cpp.)
#include <torch/torch.h>
#include <cstdint>
#include <vector>

class LabelSet : public torch::data::datasets::Dataset<LabelSet> {
public:
  torch::data::Example<> get(size_t index) override {
    auto image = torch::from_blob(images_[index].data(), {1, 28, 28}, torch::kFloat32).clone();
    auto label = torch::from_blob(&labels_[index], {1}, torch::kByte).to(torch::kInt64);
    return {image, label};
  }
  torch::optional<size_t> size() const override { return labels_.size(); }
  std::vector<std::vector<float>> images_;
  std::vector<uint8_t> labels_;
};

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(28 * 28, 10)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.flatten(1)); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), 0.01);
  auto loader = torch::data::make_data_loader(LabelSet().map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions(64).workers(2));
  std::vector<uint8_t> classes(64, 3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.to(device);
      auto y = batch.target.to(device).squeeze(1);
      auto extra = torch::from_blob(classes.data(), {64}, torch::kByte).to(torch::kLong).to(device);
      auto idx = torch::from_blob(classes.data(), {64}, torch::kByte).to(device, torch::kLong);
      auto loss = torch::nn::functional::cross_entropy(net.forward(x), y) +
                  net.forward(x).index_select(1, idx.remainder(10)).sum() * 0 + extra.sum() * 0;
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
}

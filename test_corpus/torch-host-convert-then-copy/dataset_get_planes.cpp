// torch-host-convert-then-copy: a data set's get() wraps the three uint8 planes of an image one
// by one, concatenates them and converts the result to float32 on the host; the loop copies the
// stacked batch to the GPU. torch::cat of host tensors of one dtype is a host tensor of that
// dtype: the copy carries four times the bytes. (Look-alikes: dataset_get_ok.cpp; here, the
// planes concatenated with a float plane, which is float data from the start.)
#include <torch/torch.h>
#include <array>
#include <cstdint>
#include <vector>

struct Planes {
  std::array<std::vector<uint8_t>, 3> rgb;
};

class PlaneSet : public torch::data::datasets::Dataset<PlaneSet> {
public:
  explicit PlaneSet(std::vector<Planes> images) : images_(std::move(images)) {}
  torch::data::Example<> get(size_t index) override {
    Planes &p = images_[index];
    auto r = torch::from_blob(p.rgb[0].data(), {64, 64}, torch::kUInt8);
    auto g = torch::from_blob(p.rgb[1].data(), {64, 64}, torch::kUInt8);
    auto b = torch::from_blob(p.rgb[2].data(), {64, 64}, torch::kUInt8);
    auto image = torch::cat({r, g, b}).view({3, 64, 64}).to(torch::kFloat);
    return {image, torch::tensor(static_cast<int64_t>(index % 4))};
  }
  torch::optional<size_t> size() const override { return images_.size(); }

private:
  std::vector<Planes> images_;
};

class MixedSet : public torch::data::datasets::Dataset<MixedSet> {
public:
  torch::data::Example<> get(size_t index) override {
    auto r = torch::from_blob(plane_.data(), {64, 64}, torch::kUInt8);
    auto depth = torch::rand({64, 64});
    return {torch::cat({r, depth}).to(torch::kFloat), torch::tensor(static_cast<int64_t>(index % 4))};
  }
  torch::optional<size_t> size() const override { return 128; }

private:
  std::vector<uint8_t> plane_ = std::vector<uint8_t>(64 * 64, 1);
};

int main() {
  torch::Device device(torch::kCUDA);
  auto net = torch::nn::Linear(3 * 64 * 64, 4);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(
      PlaneSet(std::vector<Planes>(256)).map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions(32).workers(4));
  auto mixed = torch::data::make_data_loader(MixedSet().map(torch::data::transforms::Stack<>()),
                                             torch::data::DataLoaderOptions(32).workers(4));
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto &batch : *loader) {
      auto x = batch.data.to(device).flatten(1);
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the float32 tensor 'batch.data' is what the data set's PlaneSet::get() returns, converted from uint8 on the host (line 23), and is copied to the device here: 4 times the bytes cross the bus and the conversion runs on the CPU; return the uint8 tensor from get() and convert on the device after the copy (in the loop at line 55 of main()) [torch-host-convert-then-copy]
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), batch.target.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    for (auto &batch : *mixed) {
      auto x = batch.data.to(device);
      auto loss = x.mean();
      (void)loss;
    }
  }
}

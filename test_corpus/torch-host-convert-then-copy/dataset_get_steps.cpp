// torch-host-convert-then-copy: a data set whose get() converts its uint8 image to float32 step by
// step on the host (a local reassigned: permuted, converted, scaled, normalised by its own mean
// and deviation), read by a loader without Stack whose batches (vectors of examples) the training
// loop collates by hand with std::transform and torch::stack before the copy. Each copy carries
// four times the bytes of the uint8 images. (Look-alikes: dataset_get_steps_ok.cpp.)
#include <torch/torch.h>
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

class FrameSet : public torch::data::datasets::Dataset<FrameSet> {
public:
  explicit FrameSet(std::vector<std::vector<uint8_t>> frames) : frames_(std::move(frames)) {}
  torch::data::Example<> get(size_t index) override {
    auto img = torch::from_blob(frames_[index].data(), {64, 64, 3}, torch::kByte).clone();
    img = img.permute({2, 0, 1});
    img = img.to(torch::kF32);
    img = img / 255;
    img = (img - img.mean()) / img.std();
    torch::Tensor target = torch::zeros({7, 7, 6});
    return {img, target};
  }
  torch::optional<size_t> size() const override { return frames_.size(); }

private:
  std::vector<std::vector<uint8_t>> frames_;
};

struct Detector : torch::nn::Module {
  Detector() { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 6, 3))); }
  torch::Tensor forward(torch::Tensor x) { return conv->forward(x); }
  torch::nn::Conv2d conv{nullptr};
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<std::vector<uint8_t>> frames(256, std::vector<uint8_t>(64 * 64 * 3, 3));
  Detector net;
  net.to(device);
  torch::optim::AdamW opt(net.parameters(), 1e-3);
  auto loader = torch::data::make_data_loader(FrameSet(frames), torch::data::DataLoaderOptions(16).workers(2));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      std::vector<torch::Tensor> images, targets;
      std::transform(batch.begin(), batch.end(), std::back_inserter(images), [](auto &e) { return e.data; });
      std::transform(batch.begin(), batch.end(), std::back_inserter(targets), [](auto &e) { return e.target; });
      torch::Tensor x = torch::stack(images).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: the float32 tensor 'torch::stack(images)' is what the data set's FrameSet::get() returns, converted from uint8 on the host (line 18), and is copied to the device here: 4 times the bytes cross the bus and the conversion runs on the CPU; return the uint8 tensor from get() and convert on the device after the copy (in the loop at line 44 of main()) [torch-host-convert-then-copy]
      torch::Tensor y = torch::stack(targets).to(device);
      auto loss = torch::mse_loss(net.forward(x), y.narrow(1, 0, 6).narrow(2, 0, 6).permute({0, 3, 1, 2}));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
}

// examples/train.cpp with every torchlint finding fixed: `torchlint examples/train_clean.cpp`
// reports nothing, with the default checks, against libtorch 1.13 and 2.x (tests/CMakeLists.txt).
// The structural fixes are torchlint's own fix-its (`torchlint --fix examples/train.cpp`); the
// host-device syncs were removed by hand, as the messages suggest.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

// A synthetic image-classification dataset (no download needed).
class RandomImages : public torch::data::datasets::Dataset<RandomImages> {
 public:
  explicit RandomImages(int64_t size) : size_(size) {}
  torch::data::Example<> get(size_t index) override {
    auto image = torch::randn({3, 32, 32});
    auto label = torch::tensor(static_cast<int64_t>(index % 10));
    return {image, label};
  }
  torch::optional<size_t> size() const override { return size_; }

 private:
  int64_t size_;
};

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(torch::nn::Conv2dOptions(3, 32, 3).padding(1).bias(false)),
        bn1(32),
        conv2(torch::nn::Conv2dOptions(32, 64, 3).padding(1).bias(false)),
        bn2(64),
        fc(64 * 8 * 8, 10) {
    register_module("conv1", conv1);
    register_module("bn1", bn1);
    register_module("conv2", conv2);
    register_module("bn2", bn2);
    register_module("fc", fc);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1(conv1(x))), 2);
    x = torch::max_pool2d(torch::relu(bn2(conv2(x))), 2);
    auto active = (x > 0).sum();                 // counted on the device: no sync
    (void)active;
    return fc(x.flatten(1));
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::BatchNorm2d bn1, bn2;
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

static torch::Tensor batch_accuracy(const torch::Tensor& logits, const torch::Tensor& target) {
  return logits.argmax(1).eq(target).to(torch::kFloat).mean();  // stays on the device
}

static double evaluate(Net& model, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto logits = model->forward(images);
  return logits.argmax(1).eq(labels).sum().item<double>() / labels.size(0);
}

int main() {
  at::globalContext().setBenchmarkCuDNN(true);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  auto loader = torch::data::make_data_loader(
      RandomImages(2048).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(4));

  auto val_images = torch::randn({256, 3, 32, 32}, torch::TensorOptions().device(device));
  auto val_labels = torch::randint(0, 10, {256}, torch::TensorOptions().device(device));

  for (int epoch = 0; epoch < 2; ++epoch) {
    model->train();
    auto epoch_loss = torch::zeros({}, torch::TensorOptions().device(device));
    auto accuracy = torch::zeros({}, torch::TensorOptions().device(device));
    for (auto& batch : *loader) {
      auto images = batch.data.to(device, /*non_blocking=*/true);
      auto labels = batch.target.to(device, /*non_blocking=*/true);
      model->zero_grad(/*set_to_none=*/true);    // resets in libtorch 1.13 and 2.x alike
      auto logits = model->forward(images);
      auto loss = torch::nn::functional::cross_entropy(logits, labels);
      loss.backward();
      optimizer.step();
      epoch_loss += loss.detach();                // accumulated on the device
      accuracy += batch_accuracy(logits, labels);
    }
    // One read per epoch.
    std::printf("epoch %d loss %.4f acc %.3f val %.3f\n", epoch, epoch_loss.item<double>(),
                accuracy.item<float>(), evaluate(model, val_images, val_labels));
  }
  return 0;
}

// torch-sync-item: per-epoch code is not hot; per-step code is. A loop that contains a whole
// training pass (a data-loader loop, or a loop calling backward()/step()) is an epoch loop.
#include <torch/torch.h>
#include <cstdio>

torch::Device trainingDevice();

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({4}, static_cast<double>(i)), torch::zeros({1})};
  }
  torch::optional<size_t> size() const override { return 64; }
};

static double evaluate(torch::nn::Linear& model, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  return model->forward(x).mean().item<double>();  // called once per epoch: quiet
}

template <typename Loader>
static torch::Tensor train_one_epoch(torch::nn::Linear& model, torch::optim::SGD& opt, Loader& loader) {
  auto total = torch::zeros({});
  for (auto& batch : loader) {
    opt.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(batch.data), batch.target);
    loss.backward();
    opt.step();
    total += loss.detach();
    if (loss.item<float>() > 1e6f) break;
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: (in the loop at line 23 of train_one_epoch()) [torch-sync-item]
  }
  return total;
}

int main() {
  torch::nn::Linear model(4, 1);
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto loader = torch::data::make_data_loader(Pairs().map(torch::data::transforms::Stack<>()),
                                              torch::data::DataLoaderOptions().batch_size(8));
  model->to(trainingDevice());
  auto probe = torch::randn({16, 4}, trainingDevice()); // on the training device: its item() may sync

  // Epoch loop around an inline data-loader loop.
  for (int epoch = 0; epoch < 3; ++epoch) {
    auto running = torch::zeros({});
    for (auto& batch : *loader) {
      opt.zero_grad();
      auto loss = torch::mse_loss(model->forward(batch.data), batch.target);
      loss.backward();
      opt.step();
      running += loss.detach();
    }
    std::printf("epoch %d loss %f val %f\n", epoch, running.item<float>(), evaluate(model, probe));
  }

  // Epoch loop around a helper that holds the data-loader loop.
  for (int epoch = 0; epoch < 3; ++epoch) {
    auto total = train_one_epoch(model, opt, *loader);
    std::printf("%f\n", total.item<double>());
  }

  // Gradient accumulation: each iteration of the outer loop is one optimizer step, so the outer
  // loop is a step loop, not an epoch loop.
  for (int step = 0; step < 10; ++step) {
    opt.zero_grad();
    torch::Tensor loss;
    for (int micro = 0; micro < 4; ++micro) {
      loss = torch::mse_loss(model->forward(probe), torch::zeros({16, 1}, trainingDevice()));
      loss.backward();
    }
    opt.step();
    std::printf("%f\n", loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: (in the loop at line 64 of main()) [torch-sync-item]
  }
  return 0;
}

// The program trains on CUDA when there is one: the sync checks stay quiet on CPU-only programs.
torch::Device trainingDevice() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }

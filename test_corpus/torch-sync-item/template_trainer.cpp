// A trainer class template that this TU never instantiates (as in a header of a library): the
// parts that do not depend on the template parameter are typed, and a loss computed from the
// model's output is a tensor because every overload of the loss function returns one. The notes
// that suggest accumulating on the device are expected too.
#include <torch/torch.h>

using Batches = torch::data::datasets::MapDataset<torch::data::datasets::MNIST, torch::data::transforms::Stack<>>;

template <class Model> class Trainer {
public:
  Trainer(Model model, torch::Device device) : model_(model), device_(device), opt_(model->parameters(), 0.01) {}

  double train_epoch(Batches data) {
    auto loader = torch::data::make_data_loader(std::move(data), torch::data::DataLoaderOptions(64).workers(4));
    double total = 0;
    for (auto &batch : *loader) {
      auto out = model_->forward(batch.data.to(device_));
      auto loss = torch::nll_loss(out, batch.target.to(device_));
      opt_.zero_grad();
      loss.backward();
      opt_.step();
      total += loss.template item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: Tensor::item() copies the value to the host [torch-sync-item]
      // CHECK-NOTES: :[[@LINE-2]]:30: note: accumulate on the device instead: a tensor accumulator declared before the loop [torch-sync-item]
      auto scaled = torch::log_softmax(out, 1) * 2;
      total += scaled.sum().template item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: Tensor::item() copies the value to the host [torch-sync-item]
      // CHECK-NOTES: :[[@LINE-2]]:38: note: accumulate on the device instead [torch-sync-item]
      torch::Tensor typed = loss.detach();
      total += typed.item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: Tensor::item() copies the value to the host [torch-sync-item]
      // CHECK-NOTES: :[[@LINE-2]]:22: note: accumulate on the device instead [torch-sync-item]
    }
    return total;
  }

private:
  Model model_;
  torch::Device device_;
  torch::optim::SGD opt_;
};

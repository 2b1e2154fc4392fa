// torch-non-blocking-copy: a project's own loader that fills the batch in the loop's condition
// (`while (loader(batch))`, `while (loader.next(batch))`, a free function taking the batch by
// reference) delivers host tensors on every step: a blocking copy of them is the same finding as for
// a torch::data loader's batch, also through std::get<I> of a tuple batch.
// Look-alikes (quiet): non_blocking set, a prefetcher that is given the device (it may deliver on
// the device), a condition that only reads the batch (const reference), a local not filled by the
// condition.
#include <torch/torch.h>
#include <string>
#include <tuple>
#include <vector>

struct ImageBatch {
  torch::Tensor images, labels;
  std::vector<std::string> names;
};

class FolderLoader {
public:
  bool operator()(std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> &out);
  bool next(ImageBatch &out);
};

class Prefetcher {
public:
  bool next(ImageBatch &out, const torch::Device &device);
};

bool fetch_batch(FolderLoader &loader, torch::Tensor &images, torch::Tensor &labels);
bool looks_valid(const ImageBatch &b);

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear net(784, 10);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  FolderLoader loader;
  Prefetcher prefetch;
  std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
  torch::Tensor images, labels;
  for (int epoch = 0; epoch < 10; ++epoch) {
    while (loader(mini_batch)) {
      auto x = std::get<0>(mini_batch).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto y = std::get<1>(mini_batch).to(device, /*non_blocking=*/true); // quiet: non_blocking
      auto loss = torch::nn::functional::cross_entropy(net(x.view({-1, 784})), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    ImageBatch batch;
    while (loader.next(batch)) {
      auto x = batch.images.view({-1, 784}).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      auto loss = torch::nn::functional::cross_entropy(net(x), batch.labels.cuda());
      // CHECK-MESSAGES: :[[@LINE-1]]:77: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    while (fetch_batch(loader, images, labels)) {
      auto loss = torch::nn::functional::cross_entropy(net(images.to(device)), labels.to(device));
      // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      // CHECK-MESSAGES: :[[@LINE-2]]:87: warning: batch tensor copied to the device without non_blocking [torch-non-blocking-copy]
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    ImageBatch ready;
    while (prefetch.next(ready, device)) { // quiet: the prefetcher is given the device
      auto loss = torch::nn::functional::cross_entropy(net(ready.images.to(device)), ready.labels.to(device));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    ImageBatch checked;
    while (looks_valid(checked)) { // quiet: the condition only reads it
      auto loss = net(checked.images.to(device)).sum();
      opt.zero_grad();
      loss.backward();
      opt.step();
      checked.images = torch::rand({8, 784});
    }
  }
  return 0;
}
